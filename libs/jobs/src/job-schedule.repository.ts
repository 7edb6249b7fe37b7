import { QueryRows } from '@app/db';
import { ScheduledRun } from './scheduled-run';

/** A job as operators see it: its schedule and its last run, and whether it is overdue. */
export interface JobStatus {
  name: string;
  /** The app that registered it; null for a job that ran but was never scheduled (a one-off run). */
  app: string | null;
  /** Expected interval; null when not scheduled. */
  everyMs: number | null;
  grace: number | null;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastSucceededAt: Date | null;
  lastDurationMs: number | null;
  /** Rows the last run deleted or changed. */
  lastAffected: number | null;
  /** Null when the last run succeeded. */
  lastError: string | null;
  /** When a run is due: a full interval after the last start (now, when it never ran). */
  nextDueAt: Date | null;
  /** The last success (or, if none, the first registration) is older than `every × grace`. */
  overdue: boolean;
  /** Since when it counts as overdue. */
  overdueSince: Date | null;
}

/** An interval as people write it: `1h`, `10m`, `30s`, `1500ms`. */
export function describeInterval(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** The job_schedules statements, one method each. */
export class JobScheduleRepository {
  constructor(private readonly rows: QueryRows) {}

  /** Records (or refreshes) the job's schedule; the first registration time is kept. */
  async register(name: string, run: ScheduledRun): Promise<void> {
    await this.rows(
      `INSERT INTO job_schedules (name, every_ms, grace, app) VALUES ($1, $2, $3, $4)
       ON CONFLICT (name) DO UPDATE SET
         every_ms = EXCLUDED.every_ms, grace = EXCLUDED.grace, app = EXCLUDED.app, registered_at = now()`,
      [name, run.everyMs, run.grace, run.app],
    );
  }

  /** Milliseconds until a run is due: a full interval after the last start (by the database's clock); 0 if never. */
  async dueInMs(name: string, everyMs: number): Promise<number> {
    const rows = await this.rows<{ wait_ms: number }>(
      `SELECT GREATEST(0, EXTRACT(EPOCH FROM last_started_at + $2 * interval '1 millisecond' - now()) * 1000)::float8 AS wait_ms
         FROM job_heartbeats WHERE name = $1`,
      [name, everyMs],
    );
    return rows.length ? Math.ceil(rows[0].wait_ms) : 0;
  }

  /** Every scheduled job, and every job that ran without a schedule, by name. */
  async list(): Promise<JobStatus[]> {
    const rows = await this.rows<Record<string, any>>(
      `SELECT COALESCE(s.name, h.name) AS name, s.app, s.every_ms, s.grace,
              h.last_started_at, h.last_finished_at, h.last_succeeded_at, h.last_duration_ms, h.last_affected, h.last_error,
              CASE WHEN s.name IS NOT NULL THEN
                COALESCE(h.last_started_at + s.every_ms * interval '1 millisecond', s.registered_at) END AS next_due_at,
              CASE WHEN s.name IS NOT NULL THEN
                COALESCE(h.last_succeeded_at, s.first_registered_at) + s.every_ms * s.grace * interval '1 millisecond'
              END AS overdue_since,
              now() AS now
         FROM job_schedules s FULL JOIN job_heartbeats h ON h.name = s.name
        ORDER BY 1`,
    );
    return rows.map((row) => {
      const overdueSince = row.overdue_since ? new Date(row.overdue_since) : null;
      const overdue = overdueSince !== null && overdueSince.getTime() < new Date(row.now).getTime();
      return {
        name: row.name,
        app: row.app ?? null,
        everyMs: row.every_ms ?? null,
        grace: row.grace ?? null,
        lastStartedAt: dateOrNull(row.last_started_at),
        lastFinishedAt: dateOrNull(row.last_finished_at),
        lastSucceededAt: dateOrNull(row.last_succeeded_at),
        lastDurationMs: row.last_duration_ms ?? null,
        lastAffected: row.last_affected === null || row.last_affected === undefined ? null : Number(row.last_affected),
        lastError: row.last_error ?? null,
        nextDueAt: dateOrNull(row.next_due_at),
        overdue,
        overdueSince: overdue ? overdueSince : null,
      };
    });
  }

  /** Removes a job that no process runs any more (its schedule and heartbeat); true when there was one. */
  async forget(name: string): Promise<boolean> {
    const rows = await this.rows(
      `WITH schedule AS (DELETE FROM job_schedules WHERE name = $1 RETURNING 1),
            heartbeat AS (DELETE FROM job_heartbeats WHERE name = $1 RETURNING 1)
       SELECT 1 FROM schedule UNION ALL SELECT 1 FROM heartbeat`,
      [name],
    );
    return rows.length > 0;
  }
}

function dateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : new Date(value as string);
}
