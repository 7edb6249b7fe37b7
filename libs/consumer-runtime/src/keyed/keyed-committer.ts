import { Logger } from 'pino';
import { errorMessage } from '../classify-error';
import { GroupCommit } from '../group-commit';
import { PendingWrites } from '../pending-writes';
import { effectSteps } from '../pipeline';
import { ParsedMessage } from '../steps/message';
import { Apply, HandleTransaction, Outcome } from '../steps/step';
import { inTransaction, TransactionDeps } from '../steps/transaction.middleware';

/** A record whose handler ran outside the transaction, to commit with its dedupe row. */
export interface RecordToCommit extends ParsedMessage {
  /** The rows its handler queued; undefined when the handler was not run (a pre-check said applied or parked). */
  writes?: PendingWrites;
  attempt: number;
}

/**
 * `rerun`: the record's handler was not run because a pre-check said it was applied or parked, and the transaction
 * found otherwise; nothing of it was written, and its handler must run now.
 */
export type CommitOutcome = Outcome | 'rerun';

interface Committing extends RecordToCommit {
  rerun?: boolean;
}

/**
 * The transaction end of a group that applies records concurrently by key: records whose handlers finished meanwhile
 * commit together (GroupCommit) through the effect steps both modes share (effectSteps), in one transaction with one
 * dedupe insert, their queued rows written by one statement per writer, parked keys decided under their locks (a
 * group commit, as the ingress does for deliveries). Each record gets its own answer. When the shared transaction
 * fails, each record is committed alone, so only the one at fault fails.
 */
export class KeyedCommitter {
  private readonly apply: Apply<Committing>;
  private readonly records: GroupCommit<RecordToCommit, CommitOutcome>;

  constructor(
    private readonly deps: TransactionDeps & {
      logger: Logger;
      /** Most records in one transaction. */
      maxBatchSize: number;
    },
  ) {
    this.apply = effectSteps(deps.group, captured);
    this.records = new GroupCommit({
      take: (records) => Math.min(records.length, deps.maxBatchSize),
      together: (records) => this.transaction(records),
      alone: async (record) => (await this.transaction([record]))[0],
      onSplit: (error, records) =>
        deps.logger.debug(
          { group: deps.group, records, err: errorMessage(error) },
          'shared commit failed; committing its records one by one',
        ),
    });
  }

  commit(record: RecordToCommit): Promise<CommitOutcome> {
    return this.records.submit(record);
  }

  /** The records in one transaction; claims not taken (records to rerun, parked ones) are given back. */
  private transaction(records: RecordToCommit[]): Promise<CommitOutcome[]> {
    const items: Committing[] = records.map((record) => ({ ...record }));
    return inTransaction(this.deps, items, async (tx) => {
      const results: CommitOutcome[] = [];
      for (const item of items) {
        const outcome = await this.apply(item, item.attempt, tx);
        results.push(item.rerun ? 'rerun' : outcome);
      }
      return results;
    });
  }
}

/**
 * The key mode's effect, behind the shared dedupe: the rows the record's handler queued join the transaction's. A
 * record whose handler a pre-check skipped (applied or parked, it said) and which this transaction found fresh gives
 * its claim back: nothing of it is written, and it reruns with its handler.
 */
async function captured(item: Committing, _attempt: number, tx: HandleTransaction): Promise<Outcome> {
  if (!item.writes) {
    tx.claims.giveBack(item.event.id);
    item.rerun = true;
    return 'duplicate';
  }
  tx.pending.addAll(item.writes);
  return 'applied';
}
