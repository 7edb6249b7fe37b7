import { EntityManager } from 'typeorm';

/**
 * Runs one statement and returns its rows. Every outbox statement returns rows (SELECT, or a CTE around
 * UPDATE/DELETE), so a TypeORM manager and a plain pg client fit alike.
 */
export type QueryRows = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

export const managerRows =
  (manager: EntityManager): QueryRows =>
  (sql, params) =>
    manager.query(sql, params);

export const clientRows =
  (client: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> }): QueryRows =>
  async <T>(sql: string, params?: unknown[]) =>
    (await client.query(sql, params)).rows as T[];
