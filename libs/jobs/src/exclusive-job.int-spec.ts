import { connect, managerRows } from '@app/db';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { runExclusiveJob } from './exclusive-job';
import { JobHeartbeatRepository } from './job-heartbeat.repository';

describe('runExclusiveJob', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'jobs-test', poolSize: 3 });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('skips while another run of the same job holds the lock, runs jobs of other names, and releases the lock after', async () => {
    let inner: unknown;
    const outer = await runExclusiveJob(dataSource, 'prune-a', async () => {
      inner = [
        await runExclusiveJob(dataSource, 'prune-a', async () => ({ affected: 1 })),
        await runExclusiveJob(dataSource, 'prune-b', async () => ({ affected: 2 })),
      ];
      return { affected: 3 };
    });
    expect(inner).toEqual([
      { ran: false, reason: 'locked' },
      { ran: true, affected: 2 },
    ]);
    expect(outer).toEqual({ ran: true, affected: 3 });
    expect(await runExclusiveJob(dataSource, 'prune-a', async () => ({ affected: 4 }))).toEqual({
      ran: true,
      affected: 4,
    });
  });

  it('records a failed run in the heartbeat, keeps the last success, and rethrows', async () => {
    await runExclusiveJob(dataSource, 'prune-c', async () => ({ affected: 7 }));
    const succeeded = await new JobHeartbeatRepository(managerRows(dataSource.manager)).find('prune-c');
    await expect(
      runExclusiveJob(dataSource, 'prune-c', async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    const failed = await new JobHeartbeatRepository(managerRows(dataSource.manager)).find('prune-c');
    expect(failed).toMatchObject({
      lastError: 'disk full',
      lastAffected: '0',
      lastSucceededAt: succeeded?.lastSucceededAt,
    });
    expect(failed!.lastFinishedAt.getTime()).toBeGreaterThanOrEqual(succeeded!.lastFinishedAt.getTime());
  });
});
