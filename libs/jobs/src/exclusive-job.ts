import { errorMessage } from '@app/logger';
import { DataSource, EntityManager } from 'typeorm';
import { JobHeartbeatRepository } from './job-heartbeat.repository';
import { JobLockRepository } from './job-lock.repository';

/** What a job reports: how many rows it deleted or changed (and whatever else it wants logged, e.g. per table). */
export interface JobOutcome {
  affected: number;
}

export type JobResult<T extends JobOutcome = JobOutcome> = ({ ran: true } & T) | { ran: false; reason: 'locked' };

/**
 * Runs `work` unless another process runs the job of the same name right now (then it skips at once): a
 * session-level advisory lock, held on one connection for the whole run, decides. Every run that ran records its
 * heartbeat (finished, duration, rows affected, error) in job_heartbeats, also when it failed; a failure is rethrown.
 * `work` gets the lock connection's manager; it may as well use its own connections.
 */
export async function runExclusiveJob<T extends JobOutcome>(
  dataSource: DataSource,
  name: string,
  work: (manager: EntityManager) => Promise<T>,
): Promise<JobResult<T>> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const locks = new JobLockRepository(runner.manager);
  try {
    if (!(await locks.tryLock(name))) return { ran: false, reason: 'locked' };
    const startedAt = new Date();
    try {
      const outcome = await work(runner.manager);
      await new JobHeartbeatRepository(runner.manager).record({
        name,
        startedAt,
        finishedAt: new Date(),
        affected: outcome.affected,
      });
      return { ran: true, ...outcome };
    } catch (error) {
      const message = errorMessage(error);
      await new JobHeartbeatRepository(runner.manager)
        .record({ name, startedAt, finishedAt: new Date(), affected: 0, error: message })
        .catch(() => undefined);
      throw error;
    } finally {
      await locks.unlock(name).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}
