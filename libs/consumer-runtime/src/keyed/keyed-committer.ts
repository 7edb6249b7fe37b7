import { ClaimedParkedEvent } from '@app/dead-letters';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { errorMessage } from '../classify-error';
import { recordEventStatus } from '../consumer-event-status.repository';
import { BatchWriter } from '../handler';
import { KeyParking } from '../parking/key-parking';
import { ParkingDecisions } from '../parking/parking-decisions';
import { PendingWrites } from '../pending-writes';
import { ProcessedEventClaims } from '../processed-events.repository';
import { HandleTransaction, ParsedMessage } from '../steps/handle.middleware';
import { Outcome, ParkStep } from '../steps/park.middleware';

/** A row a handler queued with `ctx.write`, kept until the record commits. */
export interface CapturedWrite {
  writer: BatchWriter<unknown>;
  row: unknown;
}

/** A record whose handler ran outside the transaction, to commit with its dedupe row. */
export interface RecordToCommit extends ParsedMessage {
  /** The rows its handler queued; undefined when the handler was not run (a pre-check said applied or parked). */
  writes?: CapturedWrite[];
  attempt: number;
}

/**
 * `rerun`: the record's handler was not run because a pre-check said it was applied or parked, and the transaction
 * found otherwise; nothing of it was written, and its handler must run now.
 */
export type CommitOutcome = Outcome | 'rerun';

interface Queued {
  record: RecordToCommit;
  resolve(outcome: CommitOutcome): void;
  reject(error: unknown): void;
}

interface Committing extends RecordToCommit {
  rerun?: boolean;
}

/**
 * The transaction end of a group that applies records concurrently by key: records whose handlers finished meanwhile
 * commit together, in one transaction with one dedupe insert, their queued rows written by one statement per writer,
 * parked keys decided under their locks (a group commit, as the ingress does for deliveries). Each record gets its
 * own answer. When the shared transaction fails, each record is committed alone, so only the one at fault fails.
 */
export class KeyedCommitter {
  private readonly parkStep: ParkStep<Committing>;
  private queue: Queued[] = [];
  private draining = false;

  constructor(
    private readonly deps: {
      group: string;
      dataSource: DataSource;
      logger: Logger;
      /** Most records in one transaction. */
      maxBatchSize: number;
      parking?: KeyParking;
      afterDbCommit?: () => void;
    },
  ) {
    this.parkStep = new ParkStep<Committing>({ handle: (item, _attempt, tx) => applyCaptured(item, tx) }, deps.parking);
  }

  commit(record: RecordToCommit): Promise<CommitOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // Records that finish in the same turn of the event loop share the first transaction.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) await this.commitBatch(this.queue.splice(0, this.deps.maxBatchSize));
    this.draining = false;
  }

  private async commitBatch(batch: Queued[]): Promise<void> {
    try {
      const outcomes = await this.transaction(batch.map(({ record }) => record));
      batch.forEach((queued, index) => queued.resolve(outcomes[index]));
      return;
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      this.deps.logger.debug(
        { group: this.deps.group, records: batch.length, err: errorMessage(error) },
        'shared commit failed; committing its records one by one',
      );
    }
    for (const queued of batch) {
      try {
        queued.resolve((await this.transaction([queued.record]))[0]);
      } catch (error) {
        queued.reject(error);
      }
    }
  }

  private async transaction(records: RecordToCommit[]): Promise<CommitOutcome[]> {
    const { dataSource, group } = this.deps;
    const items: Committing[] = records.map((record) => ({ ...record }));
    let decisions: ParkingDecisions | undefined;
    let replays: ClaimedParkedEvent[] = [];
    const outcomes = await dataSource.transaction(async (manager) => {
      const claims = await ProcessedEventClaims.claim(
        manager,
        group,
        items.map((item) => item.event.id),
      );
      decisions = await this.parkStep.begin(manager, items);
      const events = items.map((item) => item.event);
      const pending = new PendingWrites();
      const results: CommitOutcome[] = [];
      for (const item of items) {
        const tx = { manager, events, pending, claims };
        const outcome = await this.parkStep.handle(item, item.attempt, tx, decisions);
        results.push(item.rerun ? 'rerun' : outcome);
        if (outcome === 'applied' && !item.rerun && (item.attempt > 1 || item.replayCount > 0)) {
          // After failures or a replay there is a status row saying otherwise; it turns `processed` with the effect.
          await recordEventStatus(manager, {
            group,
            eventId: item.event.id,
            status: 'processed',
            attempts: item.attempt,
            lastError: null,
          });
        }
      }
      await pending.flush(manager);
      replays = (await decisions?.finish(manager)) ?? [];
      // Claims not taken (records to rerun, parked ones) are given back: nothing of theirs was applied.
      await claims.releaseUnused(manager);
      return results;
    });
    this.deps.afterDbCommit?.();
    await this.parkStep.committed(decisions, replays);
    return outcomes;
  }
}

/** The dedupe step for a handler that already ran: its queued rows join the transaction's, once per event. */
async function applyCaptured(item: Committing, tx: HandleTransaction): Promise<'applied' | 'duplicate'> {
  if (!tx.claims.isFresh(item.event.id)) return 'duplicate';
  if (!item.writes) {
    item.rerun = true;
    return 'duplicate';
  }
  tx.claims.take(item.event.id);
  for (const { writer, row } of item.writes) tx.pending.add(writer, row);
  return 'applied';
}
