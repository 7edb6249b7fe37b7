import type { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from './pool-query';
import { statementName } from './statement-name';

/**
 * Runs one statement and returns its rows. The repositories that take one (the outbox's, the jobs') write every
 * statement to return rows (SELECT, or a CTE around UPDATE/DELETE), so a TypeORM manager and a plain pg client or
 * pool fit alike.
 */
export type QueryRows = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

export const managerRows =
  (manager: EntityManager | DataSource): QueryRows =>
  (sql, params) =>
    manager.query(sql, params);

/** In a transaction's manager, each statement prepared once per connection (`preparedQuery`). */
export const preparedManagerRows =
  (manager: EntityManager): QueryRows =>
  (sql, params) =>
    preparedQuery(manager, sql, params ?? []);

/**
 * On a plain pg client (the relay's lane connection) or pool (the relay's jobs and metrics), each statement prepared
 * once per connection.
 */
export const clientRows =
  (client: {
    query(statement: { name: string; text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>;
  }): QueryRows =>
  async <T>(sql: string, params?: unknown[]) =>
    (await client.query({ name: statementName(sql), text: sql, values: params })).rows as T[];
