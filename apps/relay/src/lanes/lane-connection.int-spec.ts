import { createTestDatabase, TestDatabase } from '@app/testing';
import { Client } from 'pg';
import { LANE_CONNECTION_OPTIONS } from './lane-session';

describe('the relay lane connection', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it('plans with indexes only and commits its marks without waiting for the disk', async () => {
    const client = new Client({ connectionString: database.url, options: LANE_CONNECTION_OPTIONS });
    await client.connect();
    try {
      const settings = await client.query<{ name: string; setting: string }>(
        `SELECT name, setting FROM pg_settings WHERE name IN ('enable_seqscan', 'synchronous_commit') ORDER BY name`,
      );
      expect(settings.rows).toEqual([
        { name: 'enable_seqscan', setting: 'off' },
        { name: 'synchronous_commit', setting: 'off' },
      ]);
    } finally {
      await client.end();
    }
  });
});
