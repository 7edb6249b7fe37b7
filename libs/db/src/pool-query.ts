import { EventEmitter } from 'node:events';
import { DataSource, EntityManager } from 'typeorm';
import { isDatabaseUnavailable } from './pg-errors';
import { statementName } from './statement-name';

/** A pg Pool or Client: both take a named statement. */
interface PgQueryable {
  query(statement: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface PgPool {
  connect(): Promise<PgQueryable & EventEmitter & { release(error?: Error): void }>;
}

/**
 * The connection to Postgres broke after the statement was handed to it: the statement may have run and committed
 * (its answer lost on the way back) or not, and nothing on this side can tell which. A writer must not report
 * "nothing was written" for it. (A failure to get a connection at all is not this: nothing was sent then.)
 */
export class StatementOutcomeUnknownError extends Error {
  override name = 'StatementOutcomeUnknownError';
  constructor(cause: unknown) {
    super(`the connection broke during the statement: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/**
 * One statement straight on the DataSource's own pg pool, without TypeORM's per-query QueryRunner, and prepared
 * once per connection (`statementName`). For the request plane's hot statements only: skipping the QueryRunner saves
 * about a fifth of the ingress's CPU per request (measured in bench:ingress). Everything else goes through
 * `dataSource.query` or a transaction's manager.
 */
export async function poolQuery<T>(dataSource: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: PgPool }).master;
  // What pool.query does, in two steps, so that a lost connection tells "never sent" from "sent, outcome unknown".
  const client = await pool.connect();
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error); // with an error, as pool.query does: that client is not reused
  };
  // A checked-out client whose connection breaks emits 'error'; pool.query listens for it the same way.
  let onLost!: (error: Error) => void;
  const lost = new Promise<never>((_, reject) => (onLost = reject));
  client.once('error', onLost);
  try {
    const result = await Promise.race([client.query({ name: statementName(sql), text: sql, values: params }), lost]);
    return result.rows as T[];
  } catch (error) {
    release(error as Error);
    throw isDatabaseUnavailable(error) ? new StatementOutcomeUnknownError(error) : error;
  } finally {
    client.removeListener('error', onLost);
    release();
  }
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
