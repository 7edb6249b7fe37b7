import { ConfigError } from '@app/config';
import { Client } from 'pg';
import { databaseName } from './database-url';
import { MIGRATIONS } from './migrations';
import { explainPostgresError } from './postgres-refusals';
import { clientRows, QueryRows } from './query-rows';

/** Whether the database has every migration this build knows; the names of those it lacks. */
export interface SchemaStatus {
  migrated: boolean;
  missing: string[];
}

/** The migrations this build knows, by name (each class's `name`). */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map((migration) => migration.name);

/**
 * Compares the migrations the database ran (`typeorm_migrations`) with those of this build: an unmigrated database
 * (no table) lacks them all. One statement; any other error (Postgres unreachable) is thrown.
 */
export async function schemaStatus(rows: QueryRows): Promise<SchemaStatus> {
  let ran: Set<string>;
  try {
    ran = new Set((await rows<{ name: string }>('SELECT name FROM typeorm_migrations')).map((row) => row.name));
  } catch (error) {
    if ((error as { code?: string }).code !== '42P01') throw error; // undefined_table: never migrated
    ran = new Set();
  }
  const missing = MIGRATION_NAMES.filter((name) => !ran.has(name));
  return { migrated: missing.length === 0, missing };
}

/** The one line that says what to do about an unmigrated database. */
export function describeMissingMigrations(status: SchemaStatus): string {
  const shown = status.missing.slice(0, 3).join(', ');
  const more = status.missing.length > 3 ? ` and ${status.missing.length - 3} more` : '';
  return `the database is not migrated (missing ${shown}${more}): run npm run db:migrate`;
}

/**
 * Resolves when Postgres at `url` answers and its schema has every migration of this build; throws otherwise, with
 * what is wrong (unreachable, or the migrations it lacks and the command that adds them), a ConfigError when Postgres
 * refuses the connection itself (a wrong password, an untrusted certificate, a server that wants TLS).
 */
export async function checkDatabase(url: string): Promise<void> {
  let client: Client | undefined;
  try {
    client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    const status = await schemaStatus(clientRows(client));
    if (!status.migrated) throw new Error(describeMissingMigrations(status));
  } catch (error) {
    // A refusal that waiting cannot mend (credentials, TLS, a missing database) stops the app with its line.
    const refused = explainPostgresError(error, url);
    throw refused ? new ConfigError(refused) : error;
  } finally {
    await client?.end().catch(() => undefined);
  }
}

/** How logs name the database: `Postgres at <host>:<port>/<database> (DATABASE_URL)`, never its password. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `Postgres at ${parsed.hostname}:${parsed.port || 5432}/${databaseName(url)} (DATABASE_URL)`;
}
