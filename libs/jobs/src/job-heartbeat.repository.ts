import { QueryRows } from '@app/db';

export interface JobRun {
  name: string;
  startedAt: Date;
  finishedAt: Date;
  affected: number;
  /** Undefined when the run succeeded. */
  error?: string;
}

/** A job's row in job_heartbeats: its last run. */
export interface JobHeartbeat {
  name: string;
  lastStartedAt: Date;
  lastFinishedAt: Date;
  lastDurationMs: number;
  /** Rows the last run deleted or changed (a bigint, as text). */
  lastAffected: string;
  /** Null when the last run succeeded. */
  lastError: string | null;
  lastSucceededAt: Date | null;
}

/** The job_heartbeats statements, one method each. */
export class JobHeartbeatRepository {
  constructor(private readonly rows: QueryRows) {}

  async record(run: JobRun): Promise<void> {
    await this.rows(
      `INSERT INTO job_heartbeats (name, last_started_at, last_finished_at, last_duration_ms, last_affected, last_error, last_succeeded_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6::text IS NULL THEN $3::timestamptz END)
       ON CONFLICT (name) DO UPDATE SET
         last_started_at = EXCLUDED.last_started_at,
         last_finished_at = EXCLUDED.last_finished_at,
         last_duration_ms = EXCLUDED.last_duration_ms,
         last_affected = EXCLUDED.last_affected,
         last_error = EXCLUDED.last_error,
         last_succeeded_at = COALESCE(EXCLUDED.last_succeeded_at, job_heartbeats.last_succeeded_at)`,
      [
        run.name,
        run.startedAt,
        run.finishedAt,
        run.finishedAt.getTime() - run.startedAt.getTime(),
        run.affected,
        run.error ?? null,
      ],
    );
  }

  async find(name: string): Promise<JobHeartbeat | null> {
    const rows = await this.rows<{
      name: string;
      last_started_at: Date;
      last_finished_at: Date;
      last_duration_ms: number;
      last_affected: string;
      last_error: string | null;
      last_succeeded_at: Date | null;
    }>(
      `SELECT name, last_started_at, last_finished_at, last_duration_ms, last_affected, last_error, last_succeeded_at
         FROM job_heartbeats WHERE name = $1`,
      [name],
    );
    const row = rows[0];
    return row
      ? {
          name: row.name,
          lastStartedAt: row.last_started_at,
          lastFinishedAt: row.last_finished_at,
          lastDurationMs: row.last_duration_ms,
          lastAffected: row.last_affected,
          lastError: row.last_error,
          lastSucceededAt: row.last_succeeded_at,
        }
      : null;
  }
}
