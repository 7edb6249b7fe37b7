import { CloudEvent } from '@app/contracts';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { RetryPolicy } from './backoff';

/** What a handler knows about the message it is applying. */
export interface ConsumerContext {
  readonly group: string;
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  /** 1 for the first try; the retry step raises it. */
  readonly attempt: number;
  /** How often an operator replayed this message (0 unless it came from `<group>.replay`). */
  readonly replayCount: number;
  /** The transaction that also holds the dedupe row: write the effect through it and nothing else. */
  readonly manager: EntityManager;
  /**
   * The events this transaction applies, this one among them, in order: a handler may read or lock in one statement
   * what all of them need (e.g. every saga a batch of replies moves). Just this event when it is applied on its own.
   */
  readonly batch: readonly CloudEvent[];
  /**
   * Queues `row` for `writer`, which runs once, in this same transaction, with every row queued for it before the
   * commit: a batch of events costs one multi-row statement instead of one round trip each.
   */
  write<T>(writer: BatchWriter<T>, row: T): void;
  /** Carries eventId, topic, partition, offset and group. */
  readonly logger: Logger;
}

/** Writes rows in one statement through the transaction's manager (e.g. `INSERT … SELECT * FROM unnest(…)`). */
export type BatchWriter<T> = (manager: EntityManager, rows: T[]) => Promise<void>;

/** A pure handler: applies one event's effect through `ctx.manager`. Throwing rolls the transaction back. */
export type Handler<T = unknown> = (event: CloudEvent<T>, ctx: ConsumerContext) => Promise<void>;

/** Per-handler failure policy. */
export interface FailurePolicy {
  retry: RetryPolicy;
  /** Errors this handler knows retrying cannot fix, besides PermanentError. */
  isPermanent?: (error: unknown) => boolean;
}

/**
 * The event type of a handler that takes every event its group's topics carry, e.g. `@EventPattern(ANY_EVENT_TYPE)`:
 * events of its own types still go to the exact handlers; types without a schema reach it unvalidated.
 */
export const ANY_EVENT_TYPE = '*';

export interface HandlerRegistration {
  /** The versioned event type, e.g. `shop.order.placed.v1`. */
  type: string;
  handler: Handler<any>;
  policy?: { retry?: Partial<RetryPolicy>; isPermanent?: (error: unknown) => boolean };
}
