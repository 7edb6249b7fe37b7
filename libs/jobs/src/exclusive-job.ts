import { clientRows, managerRows, QueryRows } from '@app/db';
import { errorMessage } from '@app/logger';
import { Pool } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { JobHeartbeatRepository } from './job-heartbeat.repository';
import { JobLockRepository } from './job-lock.repository';
import { JobScheduleRepository } from './job-schedule.repository';
import { ScheduledRun } from './scheduled-run';

/** What a job reports: how many rows it deleted or changed (and whatever else it wants logged, e.g. per table). */
export interface JobOutcome {
  affected: number;
}

/** Why a run did not happen: another process runs the job right now, or (on a schedule) it ran recently enough. */
export type JobSkip = { ran: false; reason: 'locked' } | { ran: false; reason: 'not-due'; dueInMs: number };

export type JobResult<T extends JobOutcome = JobOutcome> = ({ ran: true } & T) | JobSkip;

/** The one connection a run holds: its statements, what `work` gets, and how to give it back. */
interface LockConnection<C> {
  rows: QueryRows;
  work: C;
  release(): Promise<void> | void;
}

/**
 * Runs `work` unless another process runs the job of the same name right now (then it skips at once): a
 * session-level advisory lock, held on one connection for the whole run, decides. Every run that ran records its
 * heartbeat (finished, duration, rows affected, error) in job_heartbeats, also when it failed; a failure is rethrown.
 * `work` gets the lock connection's manager; it may as well use its own connections.
 *
 * Given the schedule of a tick of `scheduleJob`, it also registers the job's schedule in job_schedules and, still under the
 * lock, runs only when a full interval has passed since the last start of any process: a job that was due while
 * everything was down runs once, and several instances run it once per interval between them.
 */
export function runExclusiveJob<T extends JobOutcome>(
  dataSource: DataSource,
  name: string,
  work: (manager: EntityManager) => Promise<T>,
  schedule?: ScheduledRun,
): Promise<JobResult<T>> {
  return runLocked(
    name,
    schedule,
    async () => {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      return { rows: managerRows(runner.manager), work: runner.manager, release: () => runner.release() };
    },
    work,
  );
}

/**
 * `runExclusiveJob` on a plain pg pool, for a process without TypeORM (the relay): the lock is held on one client of
 * the pool, and `work` runs its statements on that client.
 */
export function runExclusivePoolJob<T extends JobOutcome>(
  pool: Pool,
  name: string,
  work: (rows: QueryRows) => Promise<T>,
  schedule?: ScheduledRun,
): Promise<JobResult<T>> {
  return runLocked(
    name,
    schedule,
    async () => {
      const client = await pool.connect();
      let broken: Error | undefined;
      const onError = (error: Error) => (broken = error);
      client.on('error', onError);
      const rows = clientRows(client);
      const release = () => {
        client.removeListener('error', onError);
        client.release(broken); // a client whose connection broke is dropped, not returned to the pool
      };
      return { rows, work: rows, release };
    },
    work,
  );
}

async function runLocked<C, T extends JobOutcome>(
  name: string,
  scheduled: ScheduledRun | undefined,
  connect: () => Promise<LockConnection<C>>,
  work: (connection: C) => Promise<T>,
): Promise<JobResult<T>> {
  const connection = await connect();
  const locks = new JobLockRepository(connection.rows);
  try {
    if (!(await locks.tryLock(name))) return { ran: false, reason: 'locked' };
    try {
      if (scheduled) {
        const schedules = new JobScheduleRepository(connection.rows);
        await schedules.register(name, scheduled);
        const dueInMs = await schedules.dueInMs(name, scheduled.everyMs);
        // A timer that fires a little early (jitter, clock granularity) still counts as on time.
        if (dueInMs > Math.min(1000, scheduled.everyMs * 0.05)) return { ran: false, reason: 'not-due', dueInMs };
      }
      return await runAndRecord(connection, name, work);
    } finally {
      await locks.unlock(name).catch(() => undefined);
    }
  } finally {
    await connection.release();
  }
}

async function runAndRecord<C, T extends JobOutcome>(
  connection: LockConnection<C>,
  name: string,
  work: (connection: C) => Promise<T>,
): Promise<JobResult<T>> {
  const heartbeats = new JobHeartbeatRepository(connection.rows);
  const startedAt = new Date();
  try {
    const outcome = await work(connection.work);
    await heartbeats.record({ name, startedAt, finishedAt: new Date(), affected: outcome.affected });
    return { ran: true, ...outcome };
  } catch (error) {
    const message = errorMessage(error);
    await heartbeats
      .record({ name, startedAt, finishedAt: new Date(), affected: 0, error: message })
      .catch(() => undefined);
    throw error;
  }
}
