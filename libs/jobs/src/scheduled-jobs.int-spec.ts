import { connect, managerRows } from '@app/db';
import { createLogger } from '@app/logger';
import { createTestDatabase, TestDatabase, waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import { runExclusiveJob } from './exclusive-job';
import { JobSchedule } from './job-schedule';
import { JobScheduleRepository } from './job-schedule.repository';
import { scheduleJob } from './schedule-job';

describe('scheduled jobs on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const logger = createLogger('jobs-test', 'silent');
  const schedules: JobSchedule[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'scheduled-jobs-test', poolSize: 4 });
  });

  afterEach(async () => {
    await Promise.all(schedules.splice(0).map((schedule) => schedule.stop()));
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  /** A scheduled job that counts its runs. */
  function counted(name: string, everyMs: number, options: { grace?: number } = {}) {
    const runs = { count: 0 };
    const schedule = scheduleJob(
      name,
      everyMs,
      (scheduled) =>
        runExclusiveJob(
          dataSource,
          name,
          async () => {
            runs.count += 1;
            return { affected: 0 };
          },
          scheduled,
        ),
      logger,
      options,
    );
    schedules.push(schedule);
    return { schedule, runs };
  }

  async function lastStartedAt(name: string, secondsAgo: number): Promise<void> {
    await dataSource.query(
      `INSERT INTO job_heartbeats (name, last_started_at, last_finished_at, last_duration_ms, last_affected, last_succeeded_at)
       VALUES ($1, now() - $2 * interval '1 second', now() - $2 * interval '1 second', 5, 0, now() - $2 * interval '1 second')`,
      [name, secondsAgo],
    );
  }

  const job = async (name: string) =>
    (await new JobScheduleRepository(managerRows(dataSource.manager)).list()).find((j) => j.name === name);

  it('runs a job that fell due while everything was down once at start, then waits a full interval', async () => {
    await lastStartedAt('missed-while-down', 3600); // 60 missed intervals of a minute
    const { schedule, runs } = counted('missed-while-down', 60_000);
    schedule.start();
    await waitFor(() => schedule.nextRunAt !== undefined && runs.count === 1, { what: 'the catch-up run' });
    expect(runs.count).toBe(1);
    expect(schedule.nextRunAt! - Date.now()).toBeGreaterThan(50_000);
    expect(await job('missed-while-down')).toMatchObject({ app: 'jobs-test', everyMs: 60_000, grace: 2 });
  });

  it('waits for the due time of a job that ran recently instead of running at start', async () => {
    await lastStartedAt('ran-recently', 10);
    const { schedule, runs } = counted('ran-recently', 60_000);
    schedule.start(0);
    await waitFor(async () => (await job('ran-recently'))?.everyMs === 60_000, { what: 'the registration' });
    await waitFor(() => schedule.nextRunAt !== undefined && schedule.nextRunAt - Date.now() > 10_000, {
      what: 'the tick that found it not due',
    });
    expect(runs.count).toBe(0);
    // Due 50 s from now (+ a little jitter), not a whole interval from now.
    expect(schedule.nextRunAt! - Date.now()).toBeLessThan(55_000);
  });

  it('runs once per interval between two instances', async () => {
    const first = counted('shared-job', 60_000);
    const second = counted('shared-job', 60_000);
    first.schedule.start(0);
    second.schedule.start(0);
    await waitFor(
      () =>
        [first, second].every(
          ({ schedule }) => schedule.nextRunAt !== undefined && schedule.nextRunAt - Date.now() > 30_000,
        ),
      { what: 'both instances waiting for the next interval' },
    );
    expect(first.runs.count + second.runs.count).toBe(1);
  });

  it('reports a job that stopped as overdue after interval × grace, and not after it ran again', async () => {
    const { schedule, runs } = counted('stopped-job', 1000, { grace: 2 });
    schedule.start(0);
    await waitFor(() => runs.count === 1, { what: 'the first run' });
    await schedule.stop();
    expect(await job('stopped-job')).toMatchObject({ overdue: false, overdueSince: null });

    const overdue = await waitFor(async () => ((await job('stopped-job'))?.overdue ? job('stopped-job') : undefined), {
      what: 'the job overdue',
      timeoutMs: 10_000,
    });
    expect(overdue!.overdueSince!.getTime() - overdue!.lastSucceededAt!.getTime()).toBe(2000);

    const restarted = counted('stopped-job', 1000, { grace: 2 });
    restarted.schedule.start(0);
    await waitFor(() => restarted.runs.count === 1, { what: 'the run after the restart' });
    expect(await job('stopped-job')).toMatchObject({ overdue: false });
  });
});
