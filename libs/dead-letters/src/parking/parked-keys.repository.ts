import { preparedQuery } from '@app/db/light';
import { DataSource, EntityManager } from 'typeorm';

type Queryable = DataSource | EntityManager;

/** A parked key as the runtime's decision sees it. */
export interface ParkedKeyHead {
  key: string;
  /** The dead letter the key waits behind. */
  headId: string;
  /** Its event, when it has one: another copy of that event is not parked behind it. */
  headEventId?: string | null;
}

/** The head of a key, locked, with what the unparking needs to know about it. */
export interface LockedHead extends ParkedKeyHead {
  /** The head's `dead_letters` status; null while the store has not indexed it yet. */
  status: string | null;
  /** The head's event has an effect in the group (`processed_events`). */
  applied: boolean;
  /** When the head was last sent to the replay topic. */
  replayedAt: Date | null;
}

/** A parked key as operators see it. */
export interface ParkedKeySummary {
  group: string;
  key: string;
  headDeadLetterId: string;
  headEventId: string | null;
  /** `dead` waits for an operator; `replaying` is on its way; null: not indexed yet. */
  headStatus: string | null;
  headType: string | null;
  headErrorClass: string | null;
  headErrorMessage: string | null;
  /** Events parked behind the head. */
  parkedEvents: number;
  parkedAt: Date;
}

/** What parks behind one dead letter: for the confirmation of a purge. */
export interface ParkedBehind {
  deadLetterId: string;
  group: string;
  key: string;
  parkedEvents: number;
}

export interface ParkingStats {
  group: string;
  keys: number;
  events: number;
  /** Seconds since the longest-parked key of the group was parked; 0 with none. */
  oldestAgeSeconds: number;
}

/**
 * One index probe per key (`LATERAL`), rather than `key = ANY($2)` or a join: a prepared statement's generic plan
 * cannot hash a parameter array, and a join planned while `parked_keys` had no statistics compared every parked key
 * with every batch key (76 ms for 1,000 parked keys and 500 batch keys, against 0.4–0.7 ms for the probes, whatever
 * the statistics). Rows are locked in the order of the keys given, which the caller sorts: transactions that lock
 * several keys take them in one order.
 */
const lockKeys = (mode: 'SHARE' | 'UPDATE') =>
  `SELECT pk.key, pk.head_dead_letter_id, pk.head_event_id
     FROM unnest($2::text[]) AS k(key)
    CROSS JOIN LATERAL (
          SELECT p.key, p.head_dead_letter_id, p.head_event_id FROM parked_keys p WHERE p."group" = $1 AND p.key = k.key FOR ${mode}
         ) pk`;
const LOCK_SHARE = lockKeys('SHARE');
const LOCK_UPDATE = lockKeys('UPDATE');

/** The parked_keys statements, one method each. */
export class ParkedKeysRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Which of these keys are parked in the group, each row locked until the transaction ends: `FOR SHARE` for the
   * live topics (parking an event does not change the key), `FOR UPDATE` for the replay topic (applying a head's
   * replay moves the head or releases the key). Keys that are not parked lock nothing: nobody parks one except after
   * a dead letter, which commits before its offset does.
   */
  async lockParked(group: string, keys: string[], forUpdate: boolean): Promise<ParkedKeyHead[]> {
    if (keys.length === 0) return [];
    if (!(this.db instanceof EntityManager)) throw new Error('parked keys are locked inside a transaction');
    const rows = await preparedQuery<{ key: string; head_dead_letter_id: string; head_event_id: string | null }>(
      this.db,
      forUpdate ? LOCK_UPDATE : LOCK_SHARE,
      [group, [...keys].sort()],
    );
    return rows.map((row) => ({ key: row.key, headId: row.head_dead_letter_id, headEventId: row.head_event_id }));
  }

  /** Whether the key is parked now (no lock: a hint before work that the locked decision confirms). */
  async isParked(group: string, key: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM parked_keys WHERE "group" = $1 AND key = $2`, [
      group,
      key,
    ]);
    return rows.length > 0;
  }

  /** Parks the key behind this dead letter unless it is parked already (behind whichever came first). */
  async park(group: string, key: string, headId: string, headEventId: string | null): Promise<void> {
    await this.db.query(
      `INSERT INTO parked_keys ("group", key, head_dead_letter_id, head_event_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT ("group", key) DO NOTHING`,
      [group, key, headId, headEventId],
    );
  }

  /**
   * The key's head, locked for this transaction, and its state: whether its event is applied, and when it was last
   * sent for replay. Undefined if the key is not parked, or (with `skipLocked`) another transaction holds it.
   */
  async lockHead(group: string, key: string, skipLocked = false): Promise<LockedHead | undefined> {
    const [row] = await this.db.query(
      `SELECT pk.key, pk.head_dead_letter_id, d.status, d.replayed_at, (p.event_id IS NOT NULL) AS applied
         FROM parked_keys pk
         LEFT JOIN dead_letters d ON d.id = pk.head_dead_letter_id
         LEFT JOIN processed_events p ON p."group" = pk."group" AND p.event_id = d.event_id
        WHERE pk."group" = $1 AND pk.key = $2
        FOR UPDATE OF pk ${skipLocked ? 'SKIP LOCKED' : ''}`,
      [group, key],
    );
    if (!row) return undefined;
    return {
      key: row.key,
      headId: row.head_dead_letter_id,
      status: row.status,
      applied: row.applied,
      replayedAt: row.replayed_at && new Date(row.replayed_at),
    };
  }

  /** The key now waits behind this (parked event being replayed, or the one that failed again). */
  async moveHead(group: string, key: string, headId: string, headEventId: string | null): Promise<void> {
    await this.db.query(
      `UPDATE parked_keys SET head_dead_letter_id = $3, head_event_id = $4, updated_at = now() WHERE "group" = $1 AND key = $2`,
      [group, key, headId, headEventId],
    );
  }

  /** The key's events flow again. */
  async release(group: string, key: string): Promise<boolean> {
    const [, affected] = await this.db.query(`DELETE FROM parked_keys WHERE "group" = $1 AND key = $2`, [group, key]);
    return Number(affected) > 0;
  }

  /**
   * Keys of the group the unparking has work for: the head was resolved or purged, or its event is applied, or it
   * was sent for replay more than `resendAfterMs` ago and is still not applied (lost in a crash before the send).
   */
  async dueKeys(group: string, resendAfterMs: number, limit: number): Promise<string[]> {
    const rows = await this.db.query(
      `SELECT pk.key
         FROM parked_keys pk
         JOIN dead_letters d ON d.id = pk.head_dead_letter_id
         LEFT JOIN processed_events p ON p."group" = pk."group" AND p.event_id = d.event_id
        WHERE pk."group" = $1
          AND (d.status IN ('resolved', 'purged') OR p.event_id IS NOT NULL
               OR (d.status = 'replaying' AND d.replayed_at < now() - $2 * interval '1 millisecond'))
        ORDER BY pk.parked_at
        LIMIT $3`,
      [group, resendAfterMs, limit],
    );
    return rows.map((row: { key: string }) => row.key);
  }

  /** Parked keys, longest parked first, with their head and how many events wait behind it. */
  async list(filter: { group?: string; key?: string }, limit: number): Promise<ParkedKeySummary[]> {
    const rows = await this.db.query(
      `SELECT pk."group", pk.key, pk.head_dead_letter_id, pk.head_event_id, pk.parked_at,
              h.status AS head_status, h.type AS head_type, h.error_class, h.error_message,
              (SELECT count(*) FROM dead_letters d WHERE d."group" = pk."group" AND d.key = pk.key AND d.status = 'parked')::int AS parked_events
         FROM parked_keys pk
         LEFT JOIN dead_letters h ON h.id = pk.head_dead_letter_id
        WHERE ($1::varchar IS NULL OR pk."group" = $1) AND ($2::text IS NULL OR pk.key = $2)
        ORDER BY pk.parked_at, pk."group", pk.key
        LIMIT $3`,
      [filter.group ?? null, filter.key ?? null, limit],
    );
    return rows.map((row: Record<string, any>) => ({
      group: row.group,
      key: row.key,
      headDeadLetterId: row.head_dead_letter_id,
      headEventId: row.head_event_id,
      headStatus: row.head_status,
      headType: row.head_type,
      headErrorClass: row.error_class,
      headErrorMessage: row.error_message,
      parkedEvents: row.parked_events,
      parkedAt: new Date(row.parked_at),
    }));
  }

  /** The keys whose head is one of these dead letters, with the events parked behind each. */
  async parkedBehind(deadLetterIds: string[]): Promise<ParkedBehind[]> {
    if (deadLetterIds.length === 0) return [];
    const rows = await this.db.query(
      `SELECT pk.head_dead_letter_id, pk."group", pk.key,
              (SELECT count(*) FROM dead_letters d WHERE d."group" = pk."group" AND d.key = pk.key AND d.status = 'parked')::int AS parked_events
         FROM parked_keys pk
        WHERE pk.head_dead_letter_id = ANY($1::uuid[])
        ORDER BY pk."group", pk.key`,
      [deadLetterIds],
    );
    return rows.map((row: Record<string, any>) => ({
      deadLetterId: row.head_dead_letter_id,
      group: row.group,
      key: row.key,
      parkedEvents: row.parked_events,
    }));
  }

  /**
   * Per group, for the groups named and every group that holds a parked key: parked keys, parked events, and how long
   * the longest-parked key has waited.
   */
  async stats(groups: readonly string[]): Promise<ParkingStats[]> {
    const rows = await this.db.query(
      `SELECT g AS "group",
              (SELECT count(*) FROM parked_keys pk WHERE pk."group" = g)::int AS keys,
              (SELECT count(*) FROM dead_letters d WHERE d."group" = g AND d.status = 'parked')::int AS events,
              COALESCE((SELECT EXTRACT(EPOCH FROM now() - min(pk.parked_at)) FROM parked_keys pk WHERE pk."group" = g), 0)::float8 AS oldest
         FROM (SELECT unnest($1::varchar[]) AS g UNION SELECT DISTINCT "group" FROM parked_keys) groups
        ORDER BY g`,
      [[...groups]],
    );
    return rows.map((row: Record<string, any>) => ({
      group: row.group,
      keys: row.keys,
      events: row.events,
      oldestAgeSeconds: Number(row.oldest),
    }));
  }
}
