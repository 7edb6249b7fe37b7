import {
  ClaimedParkedEvent,
  deadLetterIdOf,
  NewParkedEvent,
  ParkedEventsRepository,
  ParkedKeyHead,
} from '@app/dead-letters';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { ProcessedEventClaims } from '../processed-events.repository';
import { ParsedMessage } from '../steps/message';
import { keyOf, replayOf } from './message-keys';

/** What the decisions need of the group's parking (KeyParking). */
export interface ParkingHost {
  readonly deps: { group: string; replayTopic: string; logger: Logger };
  parkedRow(source: ParsedMessage & { eventId: string; type: string }, id: string, headId: string): NewParkedEvent;
  recordParked(manager: EntityManager, eventId: string, headId: string): Promise<unknown>;
  advance(manager: EntityManager, key: string, headId: string): Promise<ClaimedParkedEvent[]>;
}

/** What a transaction does with a message: apply it, park it behind its key, or leave it (already dealt with). */
export type ParkDecision = 'handle' | 'parked' | 'skipped';

/**
 * The parking decisions of one transaction, over the parked keys it locked: which messages are parked instead of
 * applied, and which applied replays free their key's head. `finish` writes them before the transaction commits.
 */
export class ParkingDecisions {
  private readonly parkedEvents: NewParkedEvent[] = [];
  private readonly parkedReplays: Array<{ id: string; headId: string; eventId: string }> = [];
  private readonly parkedIds = new Set<string>();
  private readonly copies: Array<{ item: ParsedMessage; headId: string }> = [];
  private readonly doneHeads = new Map<string, string>();
  private stored = new Set<string>();

  constructor(
    private readonly parking: ParkingHost,
    /** Parked key → the dead letter it waits behind (and its event), as locked by this transaction. */
    private readonly heads: Map<string, ParkedKeyHead>,
  ) {}

  /**
   * Whether the message's key lets it through. A message of a parked key is parked unless it is the replay of the
   * key's head; an event the group already applied goes to the dedupe step as always (it skips it); a live message
   * whose own dead letter is the head was dead-lettered already (a redelivery) and is left alone.
   */
  decide(item: ParsedMessage, claims: ProcessedEventClaims): ParkDecision {
    const key = keyOf(item.message);
    const head = key === null ? undefined : this.heads.get(key);
    if (head === undefined || !claims.isFresh(item.event.id)) return 'handle';
    const { headId } = head;
    if (this.parkedIds.has(item.event.id)) return 'skipped';
    const replayed = replayOf(item.message);
    if (replayed === headId) return 'handle';
    this.parkedIds.add(item.event.id);
    if (replayed) {
      this.parkedReplays.push({ id: replayed, headId, eventId: item.event.id });
      return 'parked';
    }
    const { group } = this.parking.deps;
    const id = deadLetterIdOf(group, item.topic, item.partition, item.message.offset);
    if (id === headId) return 'skipped';
    if (head.headEventId === item.event.id) {
      // Another copy of the head's own event (the relay publishes at least once): it is dead-lettered already.
      this.copies.push({ item, headId });
      return 'skipped';
    }
    const source = { ...item, eventId: item.event.id, type: item.event.type };
    this.parkedEvents.push(this.parking.parkedRow(source, id, headId));
    return 'parked';
  }

  /** The message went through its handler (applied, or a duplicate): if it was its key's head, the key moves on. */
  handled(item: ParsedMessage): void {
    const key = keyOf(item.message);
    const replayed = replayOf(item.message);
    if (key !== null && replayed !== undefined && this.heads.get(key)?.headId === replayed)
      this.doneHeads.set(key, replayed);
  }

  /** Writes the parked events and their status rows, and moves the freed keys on; returns what to send for replay. */
  async finish(manager: EntityManager): Promise<ClaimedParkedEvent[]> {
    const { group, replayTopic } = this.parking.deps;
    const events = new ParkedEventsRepository(manager);
    this.stored = new Set(await events.insert(group, replayTopic, this.parkedEvents));
    for (const replay of this.parkedReplays) {
      if (!(await events.parkDeadLetter(replay.id, replay.headId))) this.parkedIds.delete(replay.eventId);
    }
    for (const event of this.parkedEvents) {
      if (this.stored.has(event.id)) await this.parking.recordParked(manager, event.eventId!, event.blockedBy);
    }
    for (const replay of this.parkedReplays) {
      if (this.parkedIds.has(replay.eventId)) await this.parking.recordParked(manager, replay.eventId, replay.headId);
    }
    const next: ClaimedParkedEvent[] = [];
    for (const [key, headId] of this.doneHeads) next.push(...(await this.parking.advance(manager, key, headId)));
    return next;
  }

  /** Log lines for what this transaction parked, once it committed. */
  logParked(): void {
    const { logger, group } = this.parking.deps;
    for (const { item, headId } of this.copies) {
      logger.warn(
        {
          group,
          eventId: item.event.id,
          topic: item.topic,
          partition: item.partition,
          offset: item.message.offset,
          blockedBy: headId,
        },
        'a copy of an event its key is parked behind; skipped (the dead letter holds it)',
      );
    }
    for (const event of this.parkedEvents) {
      if (!this.stored.has(event.id)) {
        logger.warn(
          {
            group,
            eventId: event.eventId,
            topic: event.topic,
            partition: event.partition,
            offset: event.offset,
            key: event.key,
          },
          'a copy of an event already parked or dead-lettered in this group; skipped (its first copy is kept)',
        );
        continue;
      }
      logger.info(
        {
          group,
          eventId: event.eventId,
          topic: event.topic,
          partition: event.partition,
          offset: event.offset,
          key: event.key,
          blockedBy: event.blockedBy,
        },
        'event parked behind its key',
      );
    }
    for (const replay of this.parkedReplays) {
      if (this.parkedIds.has(replay.eventId))
        logger.info(
          { group, eventId: replay.eventId, deadLetterId: replay.id, blockedBy: replay.headId },
          'replay parked behind its key',
        );
    }
  }
}
