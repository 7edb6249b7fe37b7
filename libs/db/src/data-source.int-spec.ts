import { connect } from '@app/db';
import { createTestDatabase, TestDatabase } from '@app/testing';

describe('data source settings', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(() => database.drop());

  it('opens a pool whose commits do not wait for the disk only when asked to', async () => {
    const unflushed = await connect({
      url: database.url,
      applicationName: 'test',
      poolSize: 1,
      synchronousCommit: 'off',
    });
    const normal = await connect({ url: database.url, applicationName: 'test', poolSize: 1 });
    try {
      expect(await unflushed.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'off' }]);
      expect(await normal.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'on' }]);
    } finally {
      await Promise.all([unflushed.destroy(), normal.destroy()]);
    }
  });
});
