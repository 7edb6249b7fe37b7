import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';

/** TypeORM entity classes. */
export type EntityClass = Function;

export interface DataSourceSettings {
  url: string;
  /** Shows up in pg_stat_activity; name the app. */
  applicationName: string;
  poolSize?: number;
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
