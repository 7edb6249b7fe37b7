import { Pool, PoolConfig } from 'pg';
import type { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';

/** TypeORM entity classes. */
export type EntityClass = Function;

export interface DataSourceSettings {
  url: string;
  /** Shows up in pg_stat_activity; name the app. */
  applicationName: string;
  poolSize?: number;
  /**
   * Connections the pool keeps open when idle (default none). The ingress keeps all of them, opened before it says it
   * is ready (`Database.warm`), so that a burst does not open twenty at once.
   */
  minPoolSize?: number;
  /** Fail fast when Postgres is unreachable, so a request gets a 503 instead of hanging. */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  /**
   * The entities of the tables this DataSource's owner writes; an app passes its list (`<app>.entities.ts`). The
   * statements are hand-written SQL, which needs no entity; the whole schema is composed at the top level
   * (`scripts/db/schema.ts`) for the drift check.
   */
  entities?: readonly EntityClass[];
  /**
   * `off`: this pool's commits do not wait for their WAL to reach the disk (`synchronous_commit`), for writes whose
   * loss in a crash of Postgres itself is harmless (a participant's bookkeeping around an idempotent provider call).
   */
  synchronousCommit?: 'on' | 'off';
}

/** The pg pool settings a DataSource passes to its pool, and `createPool` to a plain one. */
function poolSettings(settings: DataSourceSettings): PoolConfig {
  return {
    max: settings.poolSize ?? 10,
    min: Math.min(settings.minPoolSize ?? 0, settings.poolSize ?? 10),
    connectionTimeoutMillis: settings.connectTimeoutMs ?? 2000,
    statement_timeout: settings.statementTimeoutMs ?? 10_000,
    ...(settings.synchronousCommit === 'off' ? { options: '-c synchronous_commit=off' } : {}),
  };
}

export function dataSourceOptions(settings: DataSourceSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    applicationName: settings.applicationName,
    entities: [...(settings.entities ?? [])],
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: poolSettings(settings),
  };
}

/**
 * A DataSource, not yet initialized. TypeORM is required here, on first use, rather than when this library is
 * imported: the relay imports it and runs on plain pg pools, and loading TypeORM would cost it 10–25 MB of memory
 * (docs/benchmarks.md, Memory).
 */
export function newDataSource(settings: DataSourceSettings): DataSource {
  const { DataSource } = require('typeorm') as typeof import('typeorm');
  return new DataSource(dataSourceOptions(settings));
}

export async function connect(settings: DataSourceSettings): Promise<DataSource> {
  return newDataSource(settings).initialize();
}

/**
 * A plain pg pool with the settings a DataSource would give its own (size, timeouts, application name), for a
 * process without TypeORM (the relay). It connects on first use; `onError` hears an idle connection that broke
 * (a restart of Postgres), which would otherwise end the process.
 */
export function createPool(settings: DataSourceSettings, onError: (error: Error) => void): Pool {
  const pool = new Pool({
    connectionString: settings.url,
    application_name: settings.applicationName,
    ...poolSettings(settings),
  });
  pool.on('error', onError);
  return pool;
}
