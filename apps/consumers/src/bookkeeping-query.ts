import { GroupCommit } from '@app/consumer-runtime';
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
    write: (intents: I[]) => Promise<Map<string, R>>,
  ) {
    const states = async (intents: I[]) => stateOfEach(intents, await write(intents));
    this.intents = new GroupCommit<I, R>({
      take: distinctSagas,
      together: states,
      alone: async (intent) => (await states([intent]))[0],
    });
  }

  /** The saga's state after its intent was written. */
  record(intent: I): Promise<R> {
    return this.intents.submit(intent);
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

function stateOfEach<I extends { sagaId: string }, R>(intents: I[], states: Map<string, R>): R[] {
  return intents.map(({ sagaId }) => {
    const state = states.get(sagaId);
    if (state === undefined) throw new Error(`the intent statement returned no row for saga ${sagaId}`);
    return state;
  });
}
