import { connect } from '@app/db';
import { JOB_LOCK_SPACE } from '@app/jobs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from './test-database';
import { waitFor } from './wait-for';

export interface TestDataSource {
  database: TestDatabase;
  dataSource: DataSource;
}

/**
 * A fresh migrated database and a pool on it for the calling describe block: created before its tests, closed and
 * dropped after them. Read the fields inside hooks and tests, not at declaration time.
 */
export function useTestDataSource(applicationName: string, poolSize = 4): TestDataSource {
  const handle = {} as TestDataSource;
  beforeAll(async () => {
    handle.database = await createTestDatabase();
    // Tests hold row locks on purpose (lockRows): a statement waiting on one must outlast a busy machine, not the
    // apps' 10 s statement timeout.
    handle.dataSource = await connect({
      url: handle.database.url,
      applicationName,
      poolSize,
      statementTimeoutMs: 120_000,
    });
  });
  afterAll(async () => {
    await handle.dataSource?.destroy();
    await handle.database?.drop();
  });
  return handle;
}

/** Waits until some session holds a job's advisory lock (a run of an exclusive job is under way). */
export async function waitForJobLock(dataSource: DataSource): Promise<void> {
  await waitFor(
    async () =>
      (
        await dataSource.query(
          `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid::bigint = $1`,
          [JOB_LOCK_SPACE],
        )
      ).length === 1,
    { what: 'a run to hold the job lock' },
  );
}

export interface RowLock {
  /** The locking connection, inside its open transaction. */
  client: Client;
  /** Commits the transaction (releasing the locks) and closes the connection. */
  commit(): Promise<void>;
}

/** Opens a transaction on a connection of its own and runs `lockingSql` (a `SELECT … FOR UPDATE`) in it. */
export async function lockRows(url: string, lockingSql: string): Promise<RowLock> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(lockingSql);
  return {
    client,
    commit: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}
