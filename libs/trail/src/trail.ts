import { Admin } from 'kafkajs';
import { DataSource, EntityManager } from 'typeorm';

export type TrailDb = DataSource | EntityManager;

/** The event a trail is about. Only `id` is certain: an event written by a service (not received) has no receipt. */
export interface TrailEvent {
  id: string;
  source: string | null;
  senderEventId: string | null;
  type: string | null;
  aggregateId: string | null;
  receivedAt: Date | null;
  /** How the ref matched: the event id, the sender's event id, or the aggregate id. */
  matchedBy: Array<'id' | 'senderEventId' | 'aggregateId'>;
}

export type TrailLevel = 'info' | 'ok' | 'warn' | 'error';

/** One step of an event's life, as one trail source found it. */
export interface TrailEntry {
  at: Date;
  /** A short name of the step: received, queued, published, retrying, gave-up, dead-lettered, replayed, applied… */
  step: string;
  level: TrailLevel;
  /** The consumer group concerned, if any. */
  group?: string;
  /** One line for people. */
  summary: string;
  /** The facts behind it, for the API and the console. */
  detail: Record<string, unknown>;
  /** The dead letter this step is about, so that a console can offer its replay. */
  deadLetterId?: string;
  /**
   * The step happened before any consumer group could see the event (received, queued, published), whatever its
   * recorded time says: the relay records `published_at` just after the broker's ack, and a fast group may have
   * applied the event a few milliseconds before that record.
   */
  beforeGroups?: boolean;
}

export interface TrailContext {
  db: TrailDb;
  /** Kafka, when the caller has it: the outbox source uses it to name the partition a key went to. */
  kafkaAdmin?: () => Promise<Admin>;
}

/**
 * One kind of record about an event (its receipt, its outbox row, a group's processing, its dead letters, a task…).
 * A feature that leaves traces of an event adds one source, in its own file, and one line in `sources/index.ts`.
 */
export interface TrailSource {
  name: string;
  entries(event: TrailEvent, context: TrailContext): Promise<TrailEntry[]>;
}

/** A trail entry as the API sends it: the source that found it named, the time as ISO text. */
export type TrailStep = Omit<TrailEntry, 'at' | 'beforeGroups'> & { at: string; source: string };
