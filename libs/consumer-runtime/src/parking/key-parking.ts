import {
  ClaimedParkedEvent,
  deadLetterIdOf,
  NewParkedEvent,
  originalHeaders,
  ParkedEventsRepository,
  ParkedKeysRepository,
  replayMessage,
} from '@app/dead-letters';
import { KafkaMessage, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { errorMessage } from '../classify-error';
import { recordEventStatus } from '../consumer-event-status.repository';
import { keyOf, replayOf } from './message-keys';
import { ParkingDecisions, ParkingHost } from './parking-decisions';

export interface KeyParkingDeps {
  group: string;
  /** The group's replay topic: where parked events are sent, one at a time, once their key unparks. */
  replayTopic: string;
  producer: Producer;
  dataSource: DataSource;
  logger: Logger;
}

/** Where a message is, and its key; what parking needs of a message that failed or waits. */
export interface KeyedMessage {
  topic: string;
  partition: number;
  message: KafkaMessage;
  eventId?: string;
  type?: string;
}

/** The dead letter a message makes: its row's id, and whether the message is a replay of that row. */
export interface DeadLetterIdentity {
  id: string;
  replay: boolean;
}

/**
 * Per-key order through failures for one group (`keyOrder: 'park'`). When an event of key K is dead-lettered, K is
 * parked: the runtime records it in `parked_keys` before the offset moves past the event, and every later event of K
 * is stored behind it (`dead_letters` rows in status `parked`, in arrival order) instead of being applied; the
 * partition and every other key go on. When the head's replay is applied (or an operator purges it), the parked
 * events are replayed to the group's replay topic one after another, each once the one before is applied; the key is
 * released with the last. Every decision is taken inside the transaction that holds the event's dedupe row, with the
 * key's `parked_keys` row locked, so two members of the group never decide differently about one key.
 */
export class KeyParking implements ParkingHost {
  constructor(readonly deps: KeyParkingDeps) {}

  /** Locks the parked keys among these messages for the transaction; its decisions come from what it found. */
  async begin(manager: EntityManager, messages: KafkaMessage[], forUpdate: boolean): Promise<ParkingDecisions> {
    const keys = [...new Set(messages.map(keyOf).filter((key): key is string => key !== null))];
    const heads = await new ParkedKeysRepository(manager).lockParked(this.deps.group, keys, forUpdate);
    return new ParkingDecisions(this, new Map(heads.map((head) => [head.key, head])));
  }

  /** The id of the dead letter this message makes: the replayed row's own, else derived from where it was read. */
  identify(source: KeyedMessage): DeadLetterIdentity {
    const replayed = replayOf(source.message);
    if (replayed) return { id: replayed, replay: true };
    return {
      id: deadLetterIdOf(this.deps.group, source.topic, source.partition, source.message.offset),
      replay: false,
    };
  }

  /**
   * After the dead letter of `source` was acknowledged and before its offset moves: parks its key behind it, or, if
   * the key is parked behind another dead letter already, queues this one behind that. False if the database did
   * not take it (the message stays uncommitted and is dead-lettered again later, under the same id).
   */
  async deadLettered(source: KeyedMessage, identity: DeadLetterIdentity): Promise<boolean> {
    const key = keyOf(source.message);
    if (key === null) return true;
    const { group, logger, dataSource } = this.deps;
    const fields = this.fields(source);
    try {
      const head = await dataSource.transaction(async (manager) => {
        const keys = new ParkedKeysRepository(manager);
        await keys.park(group, key, identity.id, source.eventId ?? null);
        const locked = (await keys.lockHead(group, key))!;
        if (locked.headId === identity.id) return locked.headId;
        const events = new ParkedEventsRepository(manager);
        const parked = identity.replay
          ? await events.parkDeadLetter(identity.id, locked.headId)
          : (await events.insert(group, this.deps.replayTopic, [this.parkedRow(source, identity.id, locked.headId)]))
              .length > 0;
        if (parked && source.eventId) await this.recordParked(manager, source.eventId, locked.headId);
        return locked.headId;
      });
      if (head === identity.id)
        logger.warn({ ...fields, key, deadLetterId: head }, 'key parked behind its dead letter');
      else logger.info({ ...fields, key, blockedBy: head }, 'dead letter queued behind its parked key');
      return true;
    } catch (error) {
      logger.error({ ...fields, key, err: errorMessage(error) }, 'could not park the key; offset not committed');
      return false;
    }
  }

  /**
   * The key's head is done (applied, resolved or purged): resolves it, claims the next parked event for replay and
   * makes it the head, or releases the key when none is left. Inside the caller's transaction, the key locked.
   */
  async advance(manager: EntityManager, key: string, headId: string): Promise<ClaimedParkedEvent[]> {
    const { group, logger } = this.deps;
    const events = new ParkedEventsRepository(manager);
    const keys = new ParkedKeysRepository(manager);
    await events.resolve(headId);
    const next = await events.claimNext(group, key);
    if (!next) {
      await keys.release(group, key);
      logger.info({ group, key, deadLetterId: headId }, 'key released: its last parked event is applied');
      return [];
    }
    await keys.moveHead(group, key, next.id, next.eventId);
    await events.reblock(group, key, next.id);
    logger.info(
      { group, key, eventId: next.eventId, deadLetterId: next.id, after: headId },
      'unparking: next parked event sent for replay',
    );
    return [next];
  }

  /** Sends claimed parked events to their replay topic (after the transaction that claimed them committed). */
  async replay(rows: ClaimedParkedEvent[]): Promise<void> {
    for (const row of rows) {
      try {
        await this.deps.producer.send({ topic: row.replayTopic, acks: -1, messages: [replayMessage(row)] });
      } catch (error) {
        this.deps.logger.warn(
          {
            group: this.deps.group,
            key: row.key,
            eventId: row.eventId,
            deadLetterId: row.id,
            err: errorMessage(error),
          },
          'could not send a parked event for replay; it is sent again later',
        );
      }
    }
  }

  /** The row an event parked behind `headId` becomes. */
  parkedRow(source: KeyedMessage, id: string, headId: string): NewParkedEvent {
    return {
      id,
      eventId: source.eventId ?? null,
      type: source.type ?? null,
      key: keyOf(source.message)!,
      topic: source.topic,
      partition: source.partition,
      offset: source.message.offset,
      payload: source.message.value,
      headers: originalHeaders(source.message.headers),
      blockedBy: headId,
    };
  }

  /** `GET /events/:id` shows the event `parked` in the group, and behind what. */
  recordParked(manager: EntityManager, eventId: string, headId: string): Promise<unknown> {
    return recordEventStatus(manager, {
      group: this.deps.group,
      eventId,
      status: 'parked',
      attempts: 0,
      lastError: `parked behind dead letter ${headId}`,
    });
  }

  fields(source: KeyedMessage) {
    const { topic, partition, message, eventId } = source;
    return { group: this.deps.group, eventId, topic, partition, offset: message.offset };
  }
}
