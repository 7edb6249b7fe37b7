import { NewOutboxRow } from './outbox';
import { QueryRows } from './query-rows';

/** An outbox row as the relay publishes it: what was written, plus its id and time. */
export interface OutboxRow extends NewOutboxRow {
  id: string;
  createdAt: Date;
}

export interface Rejection {
  id: string;
  error: string;
}

export interface OutboxBacklog {
  /** Unpublished rows that are not parked (including those held behind a parked row of their key). */
  pending: number;
  /** Rows the broker rejected for good, waiting for an operator. */
  failed: number;
  /** Creation time of the oldest pending row, or null when there is none. */
  oldestPendingAt: Date | null;
}

/** Every outbox statement of the relay and the retention job, one named method each. */
export class OutboxRepository {
  constructor(private readonly rows: QueryRows) {}

  /**
   * Locks the next unpublished rows of the given lanes, oldest first within each lane, skipping rows of a key that
   * has a parked (failed) row. One index probe per lane; lanes are visited in the order given, so a caller that
   * rotates the order shares a full batch fairly. Rows come back ordered by id.
   */
  async claimBatch(lanes: number[], limit: number): Promise<OutboxRow[]> {
    const rows = await this.rows<RawRow>(
      `SELECT claimed.*
         FROM unnest($1::smallint[]) WITH ORDINALITY AS owned(lane, position)
         CROSS JOIN LATERAL (
           SELECT o.id, o.lane, o.event_id, o.topic, o.key, o.value, o.headers, o.created_at
             FROM outbox o
            WHERE o.lane = owned.lane AND o.published_at IS NULL AND o.failed_at IS NULL
              AND NOT EXISTS (
                SELECT 1 FROM outbox parked
                 WHERE parked.lane = o.lane AND parked.key = o.key AND parked.failed_at IS NOT NULL AND parked.published_at IS NULL)
            ORDER BY o.id
            LIMIT $2
              FOR UPDATE OF o SKIP LOCKED
         ) AS claimed
        LIMIT $2`,
      [lanes, limit],
    );
    return rows.map(toOutboxRow).sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
  }

  /** Marks rows the broker acknowledged; `published_at` is the time of the acknowledgement. */
  async markPublished(ids: string[]): Promise<number> {
    const [row] = await this.rows<{ count: number }>(
      `WITH done AS (
         UPDATE outbox SET published_at = clock_timestamp(), attempts = attempts + 1, last_error = NULL
          WHERE id = ANY($1::bigint[])
         RETURNING 1)
       SELECT count(*)::int AS count FROM done`,
      [ids],
    );
    return row.count;
  }

  /** Parks rows the broker rejected for good. */
  async markRejected(rejections: Rejection[]): Promise<number> {
    const [row] = await this.rows<{ count: number }>(
      `WITH parked AS (
         UPDATE outbox SET failed_at = now(), attempts = attempts + 1, last_error = rejected.error
           FROM unnest($1::bigint[], $2::text[]) AS rejected(id, error)
          WHERE outbox.id = rejected.id
         RETURNING 1)
       SELECT count(*)::int AS count FROM parked`,
      [rejections.map((rejection) => rejection.id), rejections.map((rejection) => rejection.error)],
    );
    return row.count;
  }

  /** After a failed attempt that rolled back: count it and keep its error for operators. */
  async recordFailedAttempt(ids: string[], error: string): Promise<void> {
    await this.rows(
      `WITH failed AS (
         UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::bigint[]) AND published_at IS NULL RETURNING 1)
       SELECT count(*)::int AS count FROM failed`,
      [ids, error],
    );
  }

  /** Deletes up to `limit` rows published before `cutoff`; returns how many. */
  async deletePublishedBefore(cutoff: Date, limit: number): Promise<number> {
    const [row] = await this.rows<{ count: number }>(
      `WITH doomed AS (
         SELECT id FROM outbox WHERE published_at < $1 ORDER BY published_at LIMIT $2),
       deleted AS (
         DELETE FROM outbox USING doomed WHERE outbox.id = doomed.id RETURNING 1)
       SELECT count(*)::int AS count FROM deleted`,
      [cutoff, limit],
    );
    return row.count;
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.rows<{ pending: number; failed: number; oldest_pending_at: Date | null }>(
      `SELECT count(*) FILTER (WHERE failed_at IS NULL)::int AS pending,
              count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed,
              min(created_at) FILTER (WHERE failed_at IS NULL) AS oldest_pending_at
         FROM outbox WHERE published_at IS NULL`,
    );
    return { pending: row.pending, failed: row.failed, oldestPendingAt: row.oldest_pending_at };
  }
}

interface RawRow {
  id: string;
  lane: number;
  event_id: string;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  created_at: Date;
}

function toOutboxRow(raw: RawRow): OutboxRow {
  return {
    id: raw.id,
    lane: raw.lane,
    eventId: raw.event_id,
    topic: raw.topic,
    key: raw.key,
    value: raw.value,
    headers: raw.headers,
    createdAt: raw.created_at,
  };
}
