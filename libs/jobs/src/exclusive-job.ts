import { errorMessage } from '@app/logger';
import { DataSource, EntityManager } from 'typeorm';
import { JobHeartbeatRepository } from './job-heartbeat.repository';
import { JobLockRepository } from './job-lock.repository';
import { JobScheduleRepository } from './job-schedule.repository';
import { scheduledRun } from './scheduled-run';

/** What a job reports: how many rows it deleted or changed (and whatever else it wants logged, e.g. per table). */
export interface JobOutcome {
  affected: number;
}

/** Why a run did not happen: another process runs the job right now, or (on a schedule) it ran recently enough. */
export type JobSkip = { ran: false; reason: 'locked' } | { ran: false; reason: 'not-due'; dueInMs: number };

export type JobResult<T extends JobOutcome = JobOutcome> = ({ ran: true } & T) | JobSkip;

/**
 * Runs `work` unless another process runs the job of the same name right now (then it skips at once): a
 * session-level advisory lock, held on one connection for the whole run, decides. Every run that ran records its
 * heartbeat (finished, duration, rows affected, error) in job_heartbeats, also when it failed; a failure is rethrown.
 * `work` gets the lock connection's manager; it may as well use its own connections.
 *
 * Called from a tick of `scheduleJob`, it also registers the job's schedule in job_schedules and, still under the
 * lock, runs only when a full interval has passed since the last start of any process: a job that was due while
 * everything was down runs once, and several instances run it once per interval between them.
 */
export async function runExclusiveJob<T extends JobOutcome>(
  dataSource: DataSource,
  name: string,
  work: (manager: EntityManager) => Promise<T>,
): Promise<JobResult<T>> {
  const scheduled = scheduledRun.getStore();
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const locks = new JobLockRepository(runner.manager);
  try {
    if (!(await locks.tryLock(name))) return { ran: false, reason: 'locked' };
    try {
      if (scheduled) {
        const schedules = new JobScheduleRepository(runner.manager);
        await schedules.register(name, scheduled);
        const dueInMs = await schedules.dueInMs(name, scheduled.everyMs);
        // A timer that fires a little early (jitter, clock granularity) still counts as on time.
        if (dueInMs > Math.min(1000, scheduled.everyMs * 0.05)) return { ran: false, reason: 'not-due', dueInMs };
      }
      return await runAndRecord(runner.manager, name, work);
    } finally {
      await locks.unlock(name).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}

async function runAndRecord<T extends JobOutcome>(
  manager: EntityManager,
  name: string,
  work: (manager: EntityManager) => Promise<T>,
): Promise<JobResult<T>> {
  const startedAt = new Date();
  try {
    const outcome = await work(manager);
    await new JobHeartbeatRepository(manager).record({
      name,
      startedAt,
      finishedAt: new Date(),
      affected: outcome.affected,
    });
    return { ran: true, ...outcome };
  } catch (error) {
    const message = errorMessage(error);
    await new JobHeartbeatRepository(manager)
      .record({ name, startedAt, finishedAt: new Date(), affected: 0, error: message })
      .catch(() => undefined);
    throw error;
  }
}
