import { DataSource, EntityManager } from 'typeorm';
import { DEAD_LETTER_STATUSES, DeadLetterStatus } from './dead-letter-states';
import { DeadLetterFilter, filterSql } from './dead-letter-filter';
import { IncomingDeadLetter } from './dead-letter-message';

type Queryable = DataSource | EntityManager;

/** A dead letter as lists show it (no payload, no stack). */
export interface DeadLetterSummary {
  id: string;
  group: string;
  eventId: string | null;
  type: string | null;
  key: string | null;
  errorClass: string;
  errorMessage: string;
  attempts: number;
  status: DeadLetterStatus;
  replayCount: number;
  deadAt: Date;
  originalTopic: string;
  originalPartition: number;
  originalOffset: string;
}

export interface DeadLetterDetail extends DeadLetterSummary {
  payload: string | null;
  headers: Record<string, string>;
  errorStack: string | null;
  firstFailedAt: Date | null;
  replayTopic: string;
  /** Null for a parked event that has not failed on its own. */
  dltTopic: string | null;
  dltPartition: number | null;
  dltOffset: string | null;
  /** A parked event: the dead letter its key waits behind. */
  blockedBy: string | null;
  createdAt: Date;
  replayedAt: Date | null;
  resolvedAt: Date | null;
  purgedAt: Date | null;
}

/** A row claimed for replay: what the replay message is built from. */
export interface ClaimedDeadLetter {
  id: string;
  key: string | null;
  payload: Buffer | null;
  headers: Record<string, string>;
  replayCount: number;
  replayTopic: string;
}

/** A dead letter of one event as its trail shows it. */
export interface DeadLetterOfEvent extends DeadLetterSummary {
  dltTopic: string | null;
  replayedAt: Date | null;
  resolvedAt: Date | null;
  purgedAt: Date | null;
}

export interface ErrorClassCount {
  group: string;
  errorClass: string;
  count: number;
  lastDeadAt: Date;
}

export type IndexOutcome = 'indexed' | 'returned' | 'duplicate';

const SUMMARY_COLUMNS = `id, "group", event_id, type, key, error_class, error_message, attempts, status, replay_count, dead_at, original_topic, original_partition, original_offset`;

function toSummary(row: Record<string, any>): DeadLetterSummary {
  return {
    id: row.id,
    group: row.group,
    eventId: row.event_id,
    type: row.type,
    key: row.key,
    errorClass: row.error_class,
    errorMessage: row.error_message,
    attempts: row.attempts,
    status: row.status,
    replayCount: row.replay_count,
    deadAt: new Date(row.dead_at),
    originalTopic: row.original_topic,
    originalPartition: row.original_partition,
    originalOffset: String(row.original_offset),
  };
}

/** A filter without a status leaves parked events out: a dead-letter list is about what failed. */
function withoutParked(filter: DeadLetterFilter): DeadLetterFilter & { notParked?: boolean } {
  return filter.status || filter.ids ? filter : { ...filter, notParked: true };
}

/** The dead_letters statements, one method each. */
export class DeadLettersRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Indexes one DLT message. A replay that failed again (it names its row and carries that row's replay count)
   * turns its row back to `dead`; the same message read twice, or a second dead letter of the same original
   * message, changes nothing (the unique original coordinates decide).
   */
  async index(letter: IncomingDeadLetter): Promise<IndexOutcome> {
    if (letter.replayOf) {
      if (await this.returnFromReplay(letter)) return 'returned';
      if (await this.exists(letter.replayOf)) return 'duplicate';
    }
    const rows = await this.db.query(
      `INSERT INTO dead_letters (id, "group", event_id, type, key, original_topic, original_partition, original_offset, dlt_topic, dlt_partition,
         dlt_offset, replay_topic, payload, headers, error_class, error_message, error_stack, attempts, first_failed_at, dead_at, replay_count)
       VALUES (COALESCE($21::uuid, gen_random_uuid()), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       ON CONFLICT ("group", original_topic, original_partition, original_offset) DO NOTHING
       RETURNING id`,
      [
        letter.group,
        letter.eventId,
        letter.type,
        letter.key,
        letter.originalTopic,
        letter.originalPartition,
        letter.originalOffset,
        letter.dltTopic,
        letter.dltPartition,
        letter.dltOffset,
        letter.replayTopic,
        letter.payload,
        JSON.stringify(letter.headers),
        letter.errorClass,
        letter.errorMessage,
        letter.errorStack,
        letter.attempts,
        letter.firstFailedAt,
        letter.deadAt,
        letter.replayCount,
        letter.id,
      ],
    );
    return rows.length > 0 ? 'indexed' : 'duplicate';
  }

  /**
   * The replay numbered `replayCount` of the row failed: back to `dead` with the new error. Also from `resolved`: a
   * group may accept a replay and fail it later (the agent's task dies again after the replay reset it).
   */
  private async returnFromReplay(letter: IncomingDeadLetter): Promise<boolean> {
    const [, affected] = await this.db.query(
      `UPDATE dead_letters
          SET status = 'dead', error_class = $3, error_message = $4, error_stack = $5, attempts = $6, first_failed_at = $7, dead_at = $8,
              dlt_topic = $9, dlt_partition = $10, dlt_offset = $11, resolved_at = NULL, updated_at = now()
        WHERE id = $1 AND status IN ('replaying', 'resolved') AND replay_count = $2`,
      [
        letter.replayOf,
        letter.replayCount,
        letter.errorClass,
        letter.errorMessage,
        letter.errorStack,
        letter.attempts,
        letter.firstFailedAt,
        letter.deadAt,
        letter.dltTopic,
        letter.dltPartition,
        letter.dltOffset,
      ],
    );
    return Number(affected) > 0;
  }

  /**
   * The row of this group and event that a replay took out of `dead` (`replaying`, or `resolved` once applied): the
   * one of replay number `replayCount`, or the latest when no number is given. A task that dies again after a replay
   * names it, so that the store returns that row to `dead` instead of indexing a second one.
   */
  async replayedRow(
    group: string,
    eventId: string,
    replayCount?: number,
  ): Promise<{ id: string; replayCount: number } | undefined> {
    const rows: Array<{ id: string; replay_count: number }> = await this.db.query(
      `SELECT id, replay_count FROM dead_letters
        WHERE "group" = $1 AND event_id = $2 AND status IN ('replaying', 'resolved')
          AND ($3::int IS NULL OR replay_count = $3)
        ORDER BY updated_at DESC
        LIMIT 1`,
      [group, eventId, replayCount ?? null],
    );
    return rows[0] && { id: rows[0].id, replayCount: Number(rows[0].replay_count) };
  }

  async exists(id: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM dead_letters WHERE id = $1`, [id]);
    return rows.length > 0;
  }

  /** Newest first. Parked events only when the filter asks for status `parked` (their keys list them). */
  async list(filter: DeadLetterFilter, limit: number, offset = 0): Promise<DeadLetterSummary[]> {
    const { where, params } = filterSql(withoutParked(filter), 3);
    const rows = await this.db.query(
      `SELECT ${SUMMARY_COLUMNS} FROM dead_letters WHERE ${where} ORDER BY dead_at DESC, id LIMIT $1 OFFSET $2`,
      [limit, offset, ...params],
    );
    return rows.map(toSummary);
  }

  async count(filter: DeadLetterFilter): Promise<number> {
    const { where, params } = filterSql(withoutParked(filter));
    const [row] = await this.db.query(`SELECT count(*)::int AS n FROM dead_letters WHERE ${where}`, params);
    return row.n;
  }

  async find(id: string): Promise<DeadLetterDetail | undefined> {
    const [row] = await this.db.query(
      `SELECT ${SUMMARY_COLUMNS}, payload, headers, error_stack, first_failed_at, replay_topic, dlt_topic, dlt_partition, dlt_offset, blocked_by, created_at,
              replayed_at, resolved_at, purged_at
         FROM dead_letters WHERE id = $1`,
      [id],
    );
    if (!row) return undefined;
    return {
      ...toSummary(row),
      payload: row.payload ? (row.payload as Buffer).toString('utf8') : null,
      headers: row.headers,
      errorStack: row.error_stack,
      firstFailedAt: row.first_failed_at && new Date(row.first_failed_at),
      replayTopic: row.replay_topic,
      dltTopic: row.dlt_topic,
      dltPartition: row.dlt_partition,
      dltOffset: row.dlt_offset === null ? null : String(row.dlt_offset),
      blockedBy: row.blocked_by,
      createdAt: new Date(row.created_at),
      replayedAt: row.replayed_at && new Date(row.replayed_at),
      resolvedAt: row.resolved_at && new Date(row.resolved_at),
      purgedAt: row.purged_at && new Date(row.purged_at),
    };
  }

  /** The event's dead letters in every group, oldest first. */
  async listByEvent(eventId: string): Promise<DeadLetterOfEvent[]> {
    const rows = await this.db.query(
      `SELECT ${SUMMARY_COLUMNS}, dlt_topic, replayed_at, resolved_at, purged_at
         FROM dead_letters WHERE event_id = $1 ORDER BY dead_at`,
      [eventId],
    );
    return rows.map((row: Record<string, any>) => ({
      ...toSummary(row),
      dltTopic: row.dlt_topic,
      replayedAt: row.replayed_at && new Date(row.replayed_at),
      resolvedAt: row.resolved_at && new Date(row.resolved_at),
      purgedAt: row.purged_at && new Date(row.purged_at),
    }));
  }

  /** Dead letters per group whose group gave up in [from, to) (`dead_at`), whatever their status since. */
  async countByGroupDeadBetween(from: Date, to: Date): Promise<Array<{ group: string; count: number }>> {
    // Every status listed, so that the (status, dead_at) index serves the time range.
    return this.db.query(
      `SELECT "group", count(*)::int AS count FROM dead_letters
        WHERE status = ANY($3) AND dead_at >= $1 AND dead_at < $2 GROUP BY "group"`,
      [from, to, [...DEAD_LETTER_STATUSES]],
    );
  }

  /** Dead letters still `dead`, per group and error class: what the console groups by. */
  async countDeadByErrorClass(): Promise<ErrorClassCount[]> {
    const rows = await this.db.query(
      `SELECT "group", error_class, count(*)::int AS n, max(dead_at) AS last_dead_at
         FROM dead_letters WHERE status = 'dead' GROUP BY "group", error_class ORDER BY n DESC, "group", error_class`,
    );
    return rows.map((row: Record<string, any>) => ({
      group: row.group,
      errorClass: row.error_class,
      count: row.n,
      lastDeadAt: new Date(row.last_dead_at),
    }));
  }

  /** Ids of the rows in `status` that match, oldest first: the fixed set a replay or purge works through. */
  async selectIds(filter: DeadLetterFilter, status: DeadLetterStatus, limit: number): Promise<string[]> {
    const { where, params } = filterSql({ ...filter, status }, 2);
    const rows = await this.db.query(`SELECT id FROM dead_letters WHERE ${where} ORDER BY dead_at, id LIMIT $1`, [
      limit,
      ...params,
    ]);
    return rows.map((row: { id: string }) => row.id);
  }

  /** `dead → replaying`, replay count raised; only rows still `dead` are claimed (a concurrent replay takes none twice). */
  async claimForReplay(ids: string[]): Promise<ClaimedDeadLetter[]> {
    const [rows] = await this.db.query(
      `UPDATE dead_letters SET status = 'replaying', replay_count = replay_count + 1, replayed_at = now(), updated_at = now()
        WHERE id = ANY($1::uuid[]) AND status = 'dead'
        RETURNING id, key, payload, headers, replay_count, replay_topic`,
      [ids],
    );
    return rows.map((row: Record<string, any>) => ({
      id: row.id,
      key: row.key,
      payload: row.payload,
      headers: row.headers,
      replayCount: row.replay_count,
      replayTopic: row.replay_topic,
    }));
  }

  /** Undoes a claim whose replay message could not be produced. */
  async releaseClaim(ids: string[]): Promise<void> {
    await this.db.query(
      `UPDATE dead_letters SET status = 'dead', replay_count = replay_count - 1, updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'replaying'`,
      [ids],
    );
  }

  /** `dead → purged`; returns the ids it changed. */
  async purge(ids: string[]): Promise<string[]> {
    const [rows] = await this.db.query(
      `UPDATE dead_letters SET status = 'purged', purged_at = now(), updated_at = now() WHERE id = ANY($1::uuid[]) AND status = 'dead' RETURNING id`,
      [ids],
    );
    return rows.map((row: { id: string }) => row.id);
  }

  /**
   * `replaying → resolved` once the group applied the event: its processed_events row commits with the effect, so
   * it is the proof (a replay of an event the group had applied meanwhile counts too; the runtime skips it).
   */
  async resolveReplayed(): Promise<string[]> {
    const [rows] = await this.db.query(
      `UPDATE dead_letters d SET status = 'resolved', resolved_at = now(), updated_at = now()
         FROM processed_events p
        WHERE d.status = 'replaying' AND p."group" = d."group" AND p.event_id = d.event_id
        RETURNING d.id`,
    );
    return rows.map((row: { id: string }) => row.id);
  }

  /** Deletes up to `limit` resolved or purged rows finished before `cutoff`; returns how many. */
  async deleteFinishedBefore(cutoff: Date, limit: number): Promise<number> {
    const [, affected] = await this.db.query(
      `DELETE FROM dead_letters WHERE id IN (
         SELECT id FROM dead_letters
          WHERE (status = 'resolved' AND resolved_at < $1) OR (status = 'purged' AND purged_at < $1)
          LIMIT $2)`,
      [cutoff, limit],
    );
    return Number(affected);
  }
}
