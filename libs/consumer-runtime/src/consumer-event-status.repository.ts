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

/**
 * The event's state in every consumer group that has seen it, by group name. `processed_events` is the truth for
 * "processed" (it commits with the effect); `consumer_event_status` adds attempts and the last error, and is the only
 * source for `retrying` and `dead`. Groups that have not seen the event yet are absent.
 */
export async function findGroupStatuses(manager: EntityManager | DataSource, eventId: string): Promise<GroupStatus[]> {
  const rows: Array<{
    group: string;
    status: ConsumerEventState;
    attempts: number;
    last_error: string | null;
    updated_at: Date;
  }> = await manager.query(
    `SELECT COALESCE(p."group", s."group") AS "group",
            CASE WHEN p."group" IS NOT NULL THEN 'processed' ELSE s.status END AS status,
            COALESCE(s.attempts, 1) AS attempts,
            s.last_error,
            GREATEST(p.processed_at, s.updated_at) AS updated_at
       FROM (SELECT "group", processed_at FROM processed_events WHERE event_id = $1) p
       FULL JOIN (SELECT "group", status, attempts, last_error, updated_at FROM consumer_event_status WHERE event_id = $1) s
         ON s."group" = p."group"
      ORDER BY 1`,
    [eventId],
  );
  return rows.map((row) => ({
    group: row.group,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    updatedAt: new Date(row.updated_at),
  }));
}
