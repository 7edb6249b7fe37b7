import { GroupCommit, Waiting } from '@app/consumer-runtime';
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

/** Most intents in one statement. */
const MAX_INTENTS = 200;

/**
 * The intents of many records in one bookkeeping statement (smart batching, as the consumer transactions commit):
 * those whose handlers reach it in the same turn of the event loop, or while a statement is in flight, go together in
 * the next one; nothing waits when the group is idle. Two intents of one saga never share a statement (a multi-row
 * upsert may not touch a row twice). When a shared statement fails, each of its intents is written alone, so that
 * only the one at fault fails.
 */
export class IntentBatch<I extends { sagaId: string }, R> {
  private readonly intents: GroupCommit<I, R>;

  constructor(
    /** Writes the intents in one statement; the state of each saga after it. */
    private readonly write: (intents: I[]) => Promise<Map<string, R>>,
  ) {
    this.intents = new GroupCommit<I, R>({ take: distinctSagas, commit: (batch) => this.commit(batch) });
  }

  /** The saga's state after its intent was written. */
  record(intent: I): Promise<R> {
    return this.intents.submit(intent);
  }

  private async commit(batch: Array<Waiting<I, R>>): Promise<void> {
    try {
      return answer(batch, await this.write(batch.map(({ item }) => item)));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
    }
    for (const one of batch) {
      try {
        answer([one], await this.write([one.item]));
      } catch (error) {
        one.reject(error);
      }
    }
  }
}

/** How many queued intents, from the head, name distinct sagas (at most MAX_INTENTS). */
function distinctSagas(queued: ReadonlyArray<{ sagaId: string }>): number {
  const seen = new Set<string>();
  for (const { sagaId } of queued) {
    if (seen.size === MAX_INTENTS || seen.has(sagaId)) break;
    seen.add(sagaId);
  }
  return seen.size;
}

function answer<I extends { sagaId: string }, R>(batch: Array<Waiting<I, R>>, states: Map<string, R>): void {
  for (const { item, resolve, reject } of batch) {
    const state = states.get(item.sagaId);
    if (state === undefined) reject(new Error(`the intent statement returned no row for saga ${item.sagaId}`));
    else resolve(state);
  }
}
