import { Batch, KafkaMessage } from 'kafkajs';
import { GroupBreakers } from './breaker/group-breakers';
import { PartitionHolds } from './partition-holds';
import { PipelineDeps, transactionSteps, walk } from './pipeline';
import { GroupRetryHooks } from './retry-hooks';
import { RunCommitter, RunItem } from './run-committer';
import { CompiledHandler, Liveness } from './steps/message';
import { MessageReader, readerOf } from './steps/parse-and-validate.middleware';
import { Apply, Delivery, Outcome } from './steps/step';
import { settle } from './steps/settle.middleware';
import { ownTransaction } from './steps/transaction.middleware';

export interface BatchProcessorDeps extends Omit<PipelineDeps, 'hooks' | 'holds'> {
  handlers: Map<string, CompiledHandler>;
  /** Where a partition waits while its first uncommitted message may not be tried yet. */
  holds: PartitionHolds;
  /** Most events applied in one database transaction. */
  maxBatchSize: number;
  breakers: GroupBreakers;
}

/** What the kafkajs batch gives the processor: liveness, and the one way to move the group's offset. */
export interface BatchControls extends Liveness {
  /** Marks `message.offset + 1` for commit for the batch's partition (sent with the group's others: OffsetCommits). */
  commit(message: KafkaMessage): Promise<void>;
}

/**
 * Applies one kafkajs batch (one partition, in offset order). The fast path applies a run of events in one transaction
 * with one dedupe insert, shared with the runs of other partitions that reach it together (RunCommitter); if anything
 * in it fails, the transaction rolls back, the run up to the message that failed goes through the message walk (walk:
 * retry, dead letter, waits), one transaction per attempt, and the rest goes back to the fast path. Poison, and a
 * message its partition waited for, take the walk at once. An offset is committed only after the transaction holding
 * its effect committed, or its dead letter was acknowledged.
 */
export class BatchProcessor {
  private readonly read: MessageReader;
  private readonly apply: Apply;
  private readonly walk: (delivery: Delivery) => Promise<boolean>;
  private readonly committer: RunCommitter;

  constructor(private readonly deps: BatchProcessorDeps) {
    const pipeline = { ...deps, hooks: new GroupRetryHooks(deps) };
    this.read = readerOf(deps.handlers);
    this.apply = transactionSteps(pipeline);
    this.walk = settle(pipeline)(walk(pipeline, this.read, ownTransaction(pipeline)(this.apply)));
    this.committer = new RunCommitter({ ...deps, apply: this.apply });
  }

  async process(batch: Batch, controls: BatchControls): Promise<void> {
    const { topic, partition, messages } = batch;
    // A partition that was handed back starts again at the message that waited: it carries its failure on.
    const waiting = this.deps.holds.take(topic, partition, messages[0]?.offset);
    let run: RunItem[] = [];
    for (const message of messages) {
      if (controls.shouldStop()) break;
      const item: RunItem = { topic, partition, message, controls, reading: this.read(topic, partition, message) };
      const waited = waiting && item.reading.kind === 'event' && message === messages[0];
      if (waited || item.reading.kind === 'poison') {
        if (!(await this.applyRun(run.splice(0), controls))) return;
        if (!(await this.walk(waited ? { ...item, from: { failure: waiting, waited: true } } : item))) return;
        await controls.commit(message);
        continue;
      }
      run.push(item);
      if (run.length >= this.deps.maxBatchSize && !(await this.applyRun(run.splice(0), controls))) return;
    }
    await this.applyRun(run, controls);
  }

  /**
   * A run through the fast path; when its transaction fails, the messages up to the one that failed go through the
   * message walk, and the rest goes through the fast path again. Returns false when the batch must stop.
   */
  private async applyRun(run: RunItem[], controls: BatchControls): Promise<boolean> {
    let rest = run;
    while (rest.length > 0) {
      const result = await this.committer.commit(rest);
      if ('covered' in result) {
        await controls.commit(rest[result.covered - 1].message);
        this.count(rest, result.outcomes);
        return result.covered === rest.length;
      }
      const { failed } = result;
      const upTo = failed ? failed.index + 1 : rest.length;
      for (const [index, item] of rest.slice(0, upTo).entries()) {
        const from = index === failed?.index ? { failure: failed.failure, waited: false } : undefined;
        if (!(await this.walk(from ? { ...item, from } : item))) return false;
        await controls.commit(item.message);
        if (controls.shouldStop()) return false;
      }
      rest = rest.slice(upTo);
    }
    return true;
  }

  private count(run: RunItem[], outcomes: Array<Outcome | undefined>): void {
    const { group, metrics } = this.deps;
    outcomes.forEach((outcome, index) => {
      const { reading } = run[index];
      if (outcome && reading.kind === 'event') metrics.count(group, reading.event.type, outcome);
    });
  }
}
