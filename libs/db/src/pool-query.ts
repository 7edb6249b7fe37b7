import { DataSource, EntityManager } from 'typeorm';
import { statementName } from './statement-name';

/** A pg Pool or Client: both take a named statement. */
interface PgQueryable {
  query(statement: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * One statement straight on the DataSource's own pg pool, without TypeORM's per-query QueryRunner, and prepared
 * once per connection (`statementName`). For the request plane's hot statements only: skipping the QueryRunner saves
 * about a fifth of the ingress's CPU per request (measured in bench:ingress). Everything else goes through
 * `dataSource.query` or a transaction's manager.
 */
export async function poolQuery<T>(dataSource: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: PgQueryable }).master;
  const result = await pool.query({ name: statementName(sql), text: sql, values: params });
  return result.rows as T[];
}

/**
 * One statement in a transaction's EntityManager, prepared once per connection (`statementName`): for the
 * consumers' per-batch statements, whose planning costs about as much as running them. Outside a transaction it is
 * a plain `manager.query`.
 */
export async function preparedQuery<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const runner = manager.queryRunner;
  if (!runner) return manager.query(sql, params);
  const client = (await runner.connect()) as PgQueryable;
  const result = await client.query({ name: statementName(sql), text: sql, values: params });
  return result.rows as T[];
}
