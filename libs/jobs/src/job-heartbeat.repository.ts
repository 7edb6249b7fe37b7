import { EntityManager } from 'typeorm';
import { JobHeartbeatEntity } from './job-heartbeat.entity';

export interface JobRun {
  name: string;
  startedAt: Date;
  finishedAt: Date;
  affected: number;
  /** Undefined when the run succeeded. */
  error?: string;
}

/** The job_heartbeats statements, one method each. */
export class JobHeartbeatRepository {
  constructor(private readonly manager: EntityManager) {}

  async record(run: JobRun): Promise<void> {
    await this.manager.query(
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

  async find(name: string): Promise<JobHeartbeatEntity | null> {
    return this.manager.findOneBy(JobHeartbeatEntity, { name });
  }
}
