import { poolQuery } from '@app/db';
import { DataSource } from 'typeorm';

/**
 * One statement on the bookkeeping pool (`ConsumerServiceDeps.bookkeeping`), committed on its own without waiting for
 * its WAL to reach the disk: a participant's intent before a provider call and its outcome after it. Should Postgres
 * itself crash and lose such a commit, the cost is one more provider call with the same idempotency key, which the
 * provider answers from the first; the consumer transaction that replies commits normally, and its flush covers every
 * earlier WAL record. It saves a disk flush on each side of every provider call. Prepared, straight on the pool
 * (`poolQuery`): these groups make hundreds of such calls a second.
 */
export function bookkeepingQuery<T = Record<string, unknown>>(
  bookkeeping: DataSource,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  return poolQuery<T>(bookkeeping, sql, params);
}
