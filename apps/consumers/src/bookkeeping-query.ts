import { DataSource } from 'typeorm';

/**
 * One statement in a transaction of its own that does not wait for its WAL to reach the disk (`synchronous_commit`
 * off), for a participant's bookkeeping around a provider call: the intent before it, the outcome after it. Should
 * Postgres itself crash and lose such a commit, the cost is one more provider call with the same idempotency key,
 * which the provider answers from the first; and the consumer transaction that replies commits normally, and its
 * flush covers every earlier WAL record. It saves a disk flush on each side of every provider call.
 */
export function bookkeepingQuery<T = Record<string, unknown>>(
  dataSource: DataSource,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  return dataSource.transaction(async (manager) => {
    await manager.query(`SET LOCAL synchronous_commit = off`);
    return manager.query(sql, params);
  });
}
