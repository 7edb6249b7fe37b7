import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DataSourceSettings {
  url: string;
  /** Shows up in pg_stat_activity; name the app. */
  applicationName: string;
  poolSize?: number;
  /** Fail fast when Postgres is unreachable, so a request gets a 503 instead of hanging. */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  /**
   * `off`: this pool's commits do not wait for their WAL to reach the disk (`synchronous_commit`), for writes whose
   * loss in a crash of Postgres itself is harmless (a participant's bookkeeping around an idempotent provider call).
   */
  synchronousCommit?: 'on' | 'off';
}

export function dataSourceOptions(settings: DataSourceSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    applicationName: settings.applicationName,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: settings.poolSize ?? 10,
      connectionTimeoutMillis: settings.connectTimeoutMs ?? 2000,
      statement_timeout: settings.statementTimeoutMs ?? 10_000,
      ...(settings.synchronousCommit === 'off' ? { options: '-c synchronous_commit=off' } : {}),
    },
  };
}

export async function connect(settings: DataSourceSettings): Promise<DataSource> {
  return new DataSource(dataSourceOptions(settings)).initialize();
}
