import { Client } from 'pg';
import { connect } from './data-source';
import { databaseName, withDatabase } from './database-url';

/** Creates the database named in `url` when it does not exist. Returns true when it created it. */
export async function createDatabaseIfAbsent(url: string): Promise<boolean> {
  const name = databaseName(url);
  const client = new Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '42P04') return false; // created concurrently
    throw error;
  } finally {
    await client.end();
  }
}

/** Runs pending migrations; returns the names of those it ran. */
export async function migrate(url: string): Promise<string[]> {
  const dataSource = await connect({ url, applicationName: 'hookrail-migrate', poolSize: 1 });
  try {
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
