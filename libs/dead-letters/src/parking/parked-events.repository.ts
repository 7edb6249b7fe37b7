import { DataSource, EntityManager } from 'typeorm';
import { ClaimedDeadLetter } from '../dead-letters.repository';

type Queryable = DataSource | EntityManager;

/** An event that arrived while its key was parked, as the runtime stores it. */
export interface NewParkedEvent {
  /** Derived from the group and the original coordinates (`deadLetterIdOf`). */
  id: string;
  eventId: string | null;
  type: string | null;
  key: string;
  topic: string;
  partition: number;
  offset: string;
  payload: Buffer | null;
  /** The original headers, without hookrail's own. */
  headers: Record<string, string>;
  /** The dead letter its key waits behind. */
  blockedBy: string;
}

/** The class a parked row shows where a dead letter shows its error class. */
export const PARKED_ERROR_CLASS = 'KeyParked';

export interface ClaimedParkedEvent extends ClaimedDeadLetter {
  eventId: string | null;
}

/** The statements on `dead_letters` rows in status `parked` (and on a key's head while it unparks), one method each. */
export class ParkedEventsRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Stores events behind their key's head in the order given (`park_seq` from one sequence); returns the ids of the
   * rows it parked. The same message twice is one row; a message that is already a dead letter of its own (two
   * members handled it around a rebalance) joins the queue instead of staying apart from it. Another copy of an event
   * the group holds already (parked, replaying or dead, read at other coordinates: the relay publishes at least once)
   * is not stored again: it would be replayed twice.
   */
  async insert(group: string, replayTopic: string, events: NewParkedEvent[]): Promise<string[]> {
    if (events.length === 0) return [];
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO dead_letters (id, "group", event_id, type, key, original_topic, original_partition, original_offset, replay_topic, payload,
         headers, error_class, error_message, attempts, dead_at, status, park_seq, blocked_by)
       SELECT e.id, $1::varchar, e.event_id, e.type, e.key, e.topic, e.partition, e.off, $2, e.payload, e.headers, '${PARKED_ERROR_CLASS}',
              'waiting behind dead letter ' || e.blocked_by, 0, now(), 'parked', nextval('dead_letters_park_seq'), e.blocked_by
         FROM unnest($3::uuid[], $4::varchar[], $5::varchar[], $6::text[], $7::varchar[], $8::int[], $9::bigint[], $10::bytea[], $11::jsonb[], $12::uuid[])
              WITH ORDINALITY AS e(id, event_id, type, key, topic, partition, off, payload, headers, blocked_by, n)
        WHERE e.event_id IS NULL OR NOT EXISTS (
                SELECT 1 FROM dead_letters d
                 WHERE d."group" = $1::varchar AND d.event_id = e.event_id AND d.id <> e.id AND d.status IN ('parked', 'replaying', 'dead'))
        ORDER BY e.n
       ON CONFLICT ("group", original_topic, original_partition, original_offset) DO UPDATE
          SET status = 'parked', park_seq = EXCLUDED.park_seq, blocked_by = EXCLUDED.blocked_by, updated_at = now()
        WHERE dead_letters.status = 'dead' AND dead_letters.id <> EXCLUDED.blocked_by
       RETURNING id`,
      [
        group,
        replayTopic,
        events.map((event) => event.id),
        events.map((event) => event.eventId),
        events.map((event) => event.type),
        events.map((event) => event.key),
        events.map((event) => event.topic),
        events.map((event) => event.partition),
        events.map((event) => event.offset),
        events.map((event) => event.payload),
        events.map((event) => JSON.stringify(event.headers)),
        events.map((event) => event.blockedBy),
      ],
    );
    return rows.map((row) => row.id);
  }

  /**
   * A dead letter of a parked key that is not its head (replayed by an operator, or failed again) joins the queue
   * behind the head, at its end. Only from `replaying` or `dead`: a copy of a replay that comes late changes nothing.
   */
  async parkDeadLetter(id: string, blockedBy: string): Promise<boolean> {
    const [, affected] = await this.db.query(
      `UPDATE dead_letters SET status = 'parked', park_seq = nextval('dead_letters_park_seq'), blocked_by = $2, updated_at = now()
        WHERE id = $1 AND id <> $2 AND status IN ('replaying', 'dead')`,
      [id, blockedBy],
    );
    return Number(affected) > 0;
  }

  /** The head's event is applied: `resolved` now rather than at the store's next check. */
  async resolve(id: string): Promise<void> {
    await this.db.query(
      `UPDATE dead_letters SET status = 'resolved', resolved_at = now(), updated_at = now() WHERE id = $1 AND status IN ('replaying', 'dead')`,
      [id],
    );
  }

  /** The key's first parked event, claimed for replay (`parked → replaying`, replay count raised). */
  async claimNext(group: string, key: string): Promise<ClaimedParkedEvent | undefined> {
    const [rows] = await this.db.query(
      `UPDATE dead_letters SET status = 'replaying', replay_count = replay_count + 1, replayed_at = now(), blocked_by = NULL, updated_at = now()
        WHERE id = (SELECT id FROM dead_letters WHERE "group" = $1 AND key = $2 AND status = 'parked' ORDER BY park_seq LIMIT 1 FOR UPDATE)
        RETURNING id, event_id, key, payload, headers, replay_count, replay_topic`,
      [group, key],
    );
    return rows.length ? toClaimed(rows[0]) : undefined;
  }

  /** Every event still parked behind the key now waits behind this head. */
  async reblock(group: string, key: string, headId: string): Promise<void> {
    await this.db.query(
      `UPDATE dead_letters SET blocked_by = $3, updated_at = now() WHERE "group" = $1 AND key = $2 AND status = 'parked'`,
      [group, key, headId],
    );
  }

  /** A head sent for replay and not applied after a long while: sent again with the same replay count. */
  async touchReplay(id: string): Promise<ClaimedParkedEvent | undefined> {
    const [rows] = await this.db.query(
      `UPDATE dead_letters SET replayed_at = now(), updated_at = now() WHERE id = $1 AND status = 'replaying'
        RETURNING id, event_id, key, payload, headers, replay_count, replay_topic`,
      [id],
    );
    return rows.length ? toClaimed(rows[0]) : undefined;
  }

  /** Purges every dead letter and parked event of the key (`dead` or `parked` → `purged`); returns their ids. */
  async purgeKey(group: string, key: string): Promise<string[]> {
    const [rows] = await this.db.query(
      `UPDATE dead_letters SET status = 'purged', purged_at = now(), updated_at = now()
        WHERE "group" = $1 AND key = $2 AND status IN ('dead', 'parked')
        RETURNING id`,
      [group, key],
    );
    return rows.map((row: { id: string }) => row.id);
  }
}

function toClaimed(row: Record<string, any>): ClaimedParkedEvent {
  return {
    id: row.id,
    eventId: row.event_id,
    key: row.key,
    payload: row.payload,
    headers: row.headers,
    replayCount: row.replay_count,
    replayTopic: row.replay_topic,
  };
}
