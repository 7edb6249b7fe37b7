import { DataSource, EntityManager } from 'typeorm';
import { ConsumerEventState } from './consumer-states';

const MAX_ERROR_LENGTH = 2000;

/**
 * Upserts the failure state of (group, event); `attempts` only ever grows. A `retrying` row keeps the time its run of
 * failures began (`first_failed_at`, reset when an event that was dead or processed fails anew, as after a replay):
 * returned, so that the long retry ceiling counts from the first failure whichever process or restart tries it.
 */
export async function recordEventStatus(
  manager: EntityManager | DataSource,
  row: {
    group: string;
    eventId: string;
    status: ConsumerEventState;
    attempts: number;
    lastError: string | null;
    /** The caller's idea of when the failures began; the row's own, if older, wins. */
    firstFailedAt?: Date;
  },
): Promise<Date | null> {
  const rows: Array<{ first_failed_at: Date | null }> = await manager.query(
    `INSERT INTO consumer_event_status ("group", event_id, status, attempts, last_error, updated_at, first_failed_at)
     VALUES ($1, $2, $3::varchar, $4, $5, now(), CASE WHEN $3::varchar = 'retrying' THEN COALESCE($6::timestamptz, now()) END)
     ON CONFLICT ("group", event_id) DO UPDATE
       SET status = EXCLUDED.status,
           attempts = GREATEST(consumer_event_status.attempts, EXCLUDED.attempts),
           last_error = COALESCE(EXCLUDED.last_error, consumer_event_status.last_error),
           first_failed_at = CASE
             WHEN EXCLUDED.status <> 'retrying' THEN consumer_event_status.first_failed_at
             WHEN consumer_event_status.status = 'retrying'
               THEN COALESCE(consumer_event_status.first_failed_at, EXCLUDED.first_failed_at)
             ELSE EXCLUDED.first_failed_at
           END,
           updated_at = now()
     RETURNING first_failed_at`,
    [
      row.group,
      row.eventId,
      row.status,
      row.attempts,
      row.lastError?.slice(0, MAX_ERROR_LENGTH) ?? null,
      row.firstFailedAt ?? null,
    ],
  );
  const firstFailedAt = rows[0]?.first_failed_at;
  return firstFailedAt ? new Date(firstFailedAt) : null;
}

/**
 * True when the group has given up on the event already (its status is `dead`). A failed lookup throws: the caller
 * waits and asks again rather than dead-lettering the same event twice.
 */
export async function isDeadAlready(
  manager: EntityManager | DataSource,
  group: string,
  eventId: string,
): Promise<boolean> {
  const rows: unknown[] = await manager.query(
    `SELECT 1 FROM consumer_event_status WHERE "group" = $1 AND event_id = $2 AND status = 'dead'`,
    [group, eventId],
  );
  return rows.length > 0;
}

export interface GroupStatus {
  group: string;
  status: ConsumerEventState;
  attempts: number;
  lastError: string | null;
  updatedAt: Date;
}

/** What the runtime recorded about one event in one group: its dedupe row and its status row, either may be absent. */
export interface GroupRecord {
  group: string;
  /** When its effect committed (`processed_events`); null while it is not applied. */
  processedAt: Date | null;
  /** The status row (`consumer_event_status`), written after a failure; null when the event never failed there. */
  status: ConsumerEventState | null;
  attempts: number | null;
  lastError: string | null;
  updatedAt: Date | null;
}

/**
 * The event's dedupe and status rows in every consumer group that has seen it, by group name: the trail shows them
 * as they are, `findGroupStatuses` sums them up.
 */
export async function findGroupRecords(manager: EntityManager | DataSource, eventId: string): Promise<GroupRecord[]> {
  const rows: Array<{
    group: string;
    processed_at: Date | null;
    status: ConsumerEventState | null;
    attempts: number | null;
    last_error: string | null;
    updated_at: Date | null;
  }> = await manager.query(
    `SELECT COALESCE(p."group", s."group") AS "group", p.processed_at, s.status, s.attempts, s.last_error, s.updated_at
       FROM (SELECT "group", processed_at FROM processed_events WHERE event_id = $1) p
       FULL JOIN (SELECT "group", status, attempts, last_error, updated_at FROM consumer_event_status WHERE event_id = $1) s
         ON s."group" = p."group"
      ORDER BY 1`,
    [eventId],
  );
  return rows.map((row) => ({
    group: row.group,
    processedAt: row.processed_at && new Date(row.processed_at),
    status: row.status,
    attempts: row.attempts === null ? null : Number(row.attempts),
    lastError: row.last_error,
    updatedAt: row.updated_at && new Date(row.updated_at),
  }));
}

/**
 * The event's state in every consumer group that has seen it, by group name. `processed_events` is the truth for
 * "processed" (it commits with the effect); `consumer_event_status` adds attempts and the last error, and is the only
 * source for `retrying` and `dead`. Groups that have not seen the event yet are absent.
 */
export async function findGroupStatuses(manager: EntityManager | DataSource, eventId: string): Promise<GroupStatus[]> {
  return (await findGroupRecords(manager, eventId)).map((record) => ({
    group: record.group,
    status: record.processedAt ? 'processed' : (record.status as ConsumerEventState),
    attempts: record.attempts ?? 1,
    lastError: record.lastError,
    updatedAt: latest(record.processedAt, record.updatedAt),
  }));
}

/** The later of two times, either of which may be absent (as Postgres's GREATEST, which skips nulls). */
function latest(a: Date | null, b: Date | null): Date {
  if (!a || !b) return (a ?? b) as Date;
  return a > b ? a : b;
}

/**
 * Retention: deletes up to `limit` status rows not updated for `retentionSeconds` (one short statement, few row
 * locks); returns how many.
 */
export async function deleteEventStatusesOlderThan(
  manager: EntityManager,
  retentionSeconds: number,
  limit: number,
): Promise<number> {
  const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
    `WITH doomed AS (
       SELECT "group", event_id FROM consumer_event_status WHERE updated_at < now() - make_interval(secs => $1) LIMIT $2
     ), gone AS (
       DELETE FROM consumer_event_status t USING doomed d WHERE t."group" = d."group" AND t.event_id = d.event_id RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`,
    [retentionSeconds, limit],
  );
  return deleted;
}
