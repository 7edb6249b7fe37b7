import { Logger } from 'pino';
import { errorMessage } from './classify-error';
import { GroupCommit } from './group-commit';
import { HandledMessage, Reading } from './steps/message';
import { Failure, nextFailure } from './steps/retry.middleware';
import { Apply, Delivery, Outcome } from './steps/step';
import { inTransaction, TransactionDeps } from './steps/transaction.middleware';

/** A fetched message of a batch group, read. */
export type RunItem = Delivery & { reading: Reading };

/**
 * How a run's fast path ended: committed the first `covered` messages (with what became of each event), or failed
 * (at `failed`, when one message was at fault).
 */
export type RunResult =
  { covered: number; outcomes: Array<Outcome | undefined> } | { failed?: { index: number; failure: Failure } };

/**
 * The transaction end of a batch group (smart batching): runs of different partitions that reach it together — the
 * partitions of one fetch, which kafkajs hands over at once — are applied in one transaction, each in its own order,
 * with one dedupe insert, and each gets its own result. A run that comes while a transaction is in flight joins the
 * next one; nothing waits when the group is idle. When a shared transaction fails, each of its runs is applied again
 * alone, so only the run at fault learns where it failed.
 */
export class RunCommitter {
  private readonly runs: GroupCommit<RunItem[], RunResult>;

  constructor(
    private readonly deps: TransactionDeps & {
      logger: Logger;
      /** Most events in one transaction. */
      maxBatchSize: number;
      apply: Apply;
    },
  ) {
    this.runs = new GroupCommit({
      take: (runs) => this.fitting(runs),
      together: (runs) => this.transaction(runs),
      alone: (run) => this.alone(run),
      onSplit: (error, runs) =>
        deps.logger.debug(
          { group: deps.group, runs, err: errorMessage(error) },
          'shared batch transaction failed; applying its runs one by one',
        ),
    });
  }

  /** The run through the fast path, in a transaction it may share with other partitions' runs. */
  commit(run: RunItem[]): Promise<RunResult> {
    if (!run.some(({ reading }) => reading.kind === 'event'))
      return Promise.resolve({ covered: run.length, outcomes: [] });
    return this.runs.submit(run);
  }

  /** How many queued runs fit in one transaction: one, then more while their events stay within maxBatchSize. */
  private fitting(runs: readonly RunItem[][]): number {
    let events = 0;
    let count = 0;
    for (const run of runs) {
      events += run.length;
      if (count > 0 && events > this.deps.maxBatchSize) break;
      count++;
    }
    return count;
  }

  /** The run in a transaction of its own; when it fails, the message at fault (if one was). */
  private async alone(run: RunItem[]): Promise<RunResult> {
    const at: { current?: number } = {};
    try {
      return (await this.transaction([run], at))[0];
    } catch (error) {
      const { group, logger } = this.deps;
      logger.debug(
        { group, topic: run[0].topic, partition: run[0].partition, err: errorMessage(error) },
        'batch transaction failed; applying its messages one by one',
      );
      if (at.current === undefined) return {};
      const reading = run[at.current].reading as Extract<Reading, { kind: 'event' }>;
      return { failed: { index: at.current, failure: nextFailure(undefined, error, 1, reading.handler.policy) } };
    }
  }

  /**
   * The runs in one transaction, each in order, stopping a run after its current message when its consumer stops or
   * its group rebalances; `at.current` is the message being applied when it throws (a single run's).
   */
  private async transaction(runs: RunItem[][], at: { current?: number } = {}): Promise<RunResult[]> {
    const events: HandledMessage[] = [];
    for (const run of runs) for (const { reading } of run) if (reading.kind === 'event') events.push(reading);
    const results = runs.map((run): { covered: number; outcomes: Array<Outcome | undefined> } => ({
      covered: run.length,
      outcomes: [],
    }));
    await inTransaction(this.deps, events, async (tx) => {
      for (const [r, run] of runs.entries()) {
        for (const [index, { reading, controls }] of run.entries()) {
          if (index > 0 && controls.shouldStop()) {
            results[r].covered = index;
            break;
          }
          if (reading.kind !== 'event') continue;
          at.current = index;
          results[r].outcomes[index] = await this.deps.apply(reading, 1, tx);
          at.current = undefined;
          await controls.heartbeat();
        }
      }
    });
    return results;
  }
}
