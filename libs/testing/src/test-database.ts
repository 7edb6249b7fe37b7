import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate } from '@app/db';
import { withDatabase } from '@app/db';

/** The server tests run against; its databases are named hookrail_test_*, never the development database. */
export const TEST_SERVER_URL = process.env.HOOKRAIL_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEMPLATE_DATABASE = 'hookrail_test_template';

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(TEST_SERVER_URL, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Once per test run: a freshly migrated template, and no databases left over from earlier runs. */
export async function prepareTemplateDatabase(): Promise<void> {
  await admin(async (client) => {
    const stale = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'hookrail\\_test\\_%' OR datname LIKE 'hookrail\\_drift\\_%'",
    );
    for (const { datname } of stale.rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  });
  await migrate(withDatabase(TEST_SERVER_URL, TEMPLATE_DATABASE));
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A database of its own for one test file, cloned from the migrated template in milliseconds. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `hookrail_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`));
  return {
    name,
    url: withDatabase(TEST_SERVER_URL, name),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** An empty database (no migrations), for tests of the migrations themselves. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const name = `hookrail_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    name,
    url: withDatabase(TEST_SERVER_URL, name),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
