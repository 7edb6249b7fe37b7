import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate, withDatabase } from '@app/db';

/** The server tests run against; their databases are named hookrail_test_*, never the development database. */
export const TEST_SERVER_URL = process.env.HOOKRAIL_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** One test run (one jest invocation) owns the databases tagged with its id, so parallel runs never collide. */
function runId(): string {
  const id = process.env.HOOKRAIL_TEST_RUN;
  if (!id) throw new Error('HOOKRAIL_TEST_RUN is not set: run tests through jest (its global setup sets it)');
  return id;
}

export const templateDatabase = (run = runId()): string => `hookrail_test_${run}_template`;

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(TEST_SERVER_URL, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Drops this run's databases, or with `staleOnly` those of earlier runs whose process is gone. */
export async function dropTestDatabases({ run, staleOnly }: { run?: string; staleOnly?: boolean }): Promise<void> {
  await admin(async (client) => {
    const found = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'hookrail\\_test\\_%'",
    );
    for (const { datname } of found.rows) {
      const owner = datname.split('_')[2];
      const drop = staleOnly ? !processAlive(Number(owner)) : owner === run;
      if (drop) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  });
}

/** Once per test run: a freshly migrated template for this run. */
export async function prepareTemplateDatabase(run: string): Promise<void> {
  await dropTestDatabases({ staleOnly: true });
  await admin((client) => client.query(`CREATE DATABASE "${templateDatabase(run)}"`));
  await migrate(withDatabase(TEST_SERVER_URL, templateDatabase(run)));
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function create(template?: string): Promise<TestDatabase> {
  const name = `hookrail_test_${runId()}_${randomBytes(5).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  return {
    name,
    url: withDatabase(TEST_SERVER_URL, name),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** A database of its own for one test file, cloned from the migrated template in milliseconds. */
export const createTestDatabase = (): Promise<TestDatabase> => create(templateDatabase());

/** An empty database (no migrations), for tests of the migrations themselves. */
export const createEmptyDatabase = (): Promise<TestDatabase> => create();
