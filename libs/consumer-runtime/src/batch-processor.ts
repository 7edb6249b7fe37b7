import { ClaimedParkedEvent } from '@app/dead-letters';
import { Batch, KafkaMessage } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { GroupBreakers } from './breaker/group-breakers';
import { errorMessage } from './classify-error';
import { recordEventStatus } from './consumer-event-status.repository';
import { ConsumerMetrics } from './consumer-metrics';
import { ANY_EVENT_TYPE, FailurePolicy, Handler } from './handler';
import { KeyParking } from './parking/key-parking';
import { ParkingDecisions } from './parking/parking-decisions';
import { PartitionHolds } from './partition-holds';
import { PendingWrites } from './pending-writes';
import { ProcessedEventClaims } from './processed-events.repository';
import { GroupRetryHooks } from './retry-hooks';
import { DeadLetterStep } from './steps/dead-letter.middleware';
import { GiveUpStep } from './steps/give-up.middleware';
import { dedupe } from './steps/dedupe.middleware';
import { HandledMessage, HandleStep } from './steps/handle.middleware';
import { Outcome, ParkStep } from './steps/park.middleware';
import { parseAndValidate, Parsed } from './steps/parse-and-validate.middleware';
import { Failure, nextFailure, retry, RetrySettings } from './steps/retry.middleware';

/** A handler with its steps composed: dedupe inside the transaction, and the failure policy for retry. */
export interface CompiledHandler {
  type: string;
  /** The handler itself (groups that apply records by key run it before their transaction). */
  handler: Handler;
  apply: ReturnType<typeof dedupe>;
  policy: FailurePolicy;
}

export interface BatchProcessorDeps {
  group: string;
  dataSource: DataSource;
  logger: Logger;
  metrics: ConsumerMetrics;
  handlers: Map<string, CompiledHandler>;
  /** Most events applied in one database transaction. */
  maxBatchSize: number;
  retry: RetrySettings;
  deadLetters: DeadLetterStep;
  /** Where a partition waits while its first uncommitted message may not be tried yet. */
  holds: PartitionHolds;
  breakers: GroupBreakers;
  /** Per-key order through failures (`keyOrder: 'park'`); absent, no key is ever parked. */
  parking?: KeyParking;
  /** Runs after every database commit and before the offset commit (fault injection in crash tests). */
  afterDbCommit?: () => void;
}

/** What the kafkajs batch gives the processor: liveness, and the one way to move the group's offset. */
export interface BatchControls {
  heartbeat(): Promise<void>;
  /** The consumer is stopping, lost the partition or is rebalancing: finish the current message, start no new one. */
  shouldStop(): boolean;
  /** Marks `message.offset + 1` for commit for the batch's partition (sent with the group's others: OffsetCommits). */
  commit(message: KafkaMessage): Promise<void>;
}

type Item = { message: KafkaMessage; handled?: HandledMessage; policy?: FailurePolicy };

/**
 * Applies one kafkajs batch (one partition, in offset order) through the steps: parse and validate, then dedupe and
 * handle in a transaction, retry, dead-letter. The fast path applies a run of events in one transaction with one
 * dedupe insert; if anything in it fails, the transaction rolls back, the run up to the message that failed is applied
 * one message at a time with the retry step, and the rest goes back to the fast path. A message that must wait longer
 * than a moment hands its partition back (PartitionHolds) and the batch ends there. An offset is committed only after
 * the transaction holding its effect committed, or its dead letter was acknowledged.
 */
export class BatchProcessor {
  private readonly parkStep: ParkStep<HandledMessage>;
  private readonly hooks: GroupRetryHooks;
  private readonly giveUpStep: GiveUpStep;

  constructor(private readonly deps: BatchProcessorDeps) {
    this.parkStep = new ParkStep(new HandleStep(deps), deps.parking);
    this.hooks = new GroupRetryHooks(deps);
    this.giveUpStep = new GiveUpStep(deps);
  }

  async process(batch: Batch, controls: BatchControls): Promise<void> {
    const { handlers, maxBatchSize, holds } = this.deps;
    // A partition that was handed back starts again at the message that waited: it carries its failure on.
    const waiting = holds.take(batch.topic, batch.partition, batch.messages[0]?.offset);
    const takesAnyType = handlers.has(ANY_EVENT_TYPE);
    let run: Item[] = [];
    for (const message of batch.messages) {
      if (controls.shouldStop()) break;
      const parsed = parseAndValidate(
        message,
        (type) => this.handlerOf(type) !== undefined,
        (type) => takesAnyType && !handlers.has(type),
      );
      if (parsed.kind === 'poison') {
        if (!(await this.applyRun(batch, run, controls))) return;
        run = [];
        const now = new Date();
        const failure: Failure = {
          error: parsed.error,
          errorClass: 'poison',
          attempts: 1,
          firstFailureAt: now,
          lastFailureAt: now,
        };
        this.hooks.log({ topic: batch.topic, partition: batch.partition, message, eventId: parsed.eventId }, failure, {
          retry: false,
        });
        if (!(await this.deadLetter(batch, message, parsed.eventId, parsed.type ?? 'unknown', failure))) return;
        await controls.commit(message);
        continue;
      }
      const item = this.item(batch, message, parsed);
      if (waiting && item.handled && message === batch.messages[0]) {
        if (!(await this.applyOne(batch, item, controls, { failure: waiting, waited: true }))) return;
        await controls.commit(message);
        continue;
      }
      run.push(item);
      if (run.length >= maxBatchSize && !(await this.applyRun(batch, run.splice(0), controls))) return;
    }
    await this.applyRun(batch, run, controls);
  }

  /**
   * Fast path: the run in one transaction (stopping after the current message when the consumer stops or the group
   * rebalances). Returns false when processing of this batch must stop.
   */
  private async applyRun(batch: Batch, run: Item[], controls: BatchControls): Promise<boolean> {
    if (run.length === 0) return true;
    const events = run.filter((item) => item.handled);
    const outcomes = new Map<Item, Outcome>();
    let covered = run.length;
    let parking: ParkingDecisions | undefined;
    let replays: ClaimedParkedEvent[] = [];
    if (events.length > 0) {
      let current: Item | undefined;
      try {
        await this.deps.dataSource.transaction(async (manager) => {
          const claims = await ProcessedEventClaims.claim(
            manager,
            this.deps.group,
            events.map((item) => item.handled!.event.id),
          );
          parking = await this.parkStep.begin(
            manager,
            events.map(({ message }) => ({ topic: batch.topic, message })),
          );
          const pending = new PendingWrites();
          const applied = events.map((item) => item.handled!.event);
          for (const [index, item] of run.entries()) {
            if (index > 0 && controls.shouldStop()) {
              covered = index;
              break;
            }
            if (!item.handled) continue;
            current = item;
            const tx = { manager, events: applied, pending, claims };
            const outcome = await this.parkStep.handle(item.handled, 1, tx, parking);
            if (outcome === 'applied' && item.handled.replayCount > 0) await this.markProcessed(manager, item, 1);
            outcomes.set(item, outcome);
            current = undefined;
            await controls.heartbeat();
          }
          await pending.flush(manager);
          replays = (await parking?.finish(manager)) ?? [];
          // The events not reached, and the parked ones, give their dedupe rows back: they were not applied.
          await claims.releaseUnused(manager);
        });
      } catch (error) {
        this.deps.logger.debug(
          { group: this.deps.group, topic: batch.topic, partition: batch.partition, err: errorMessage(error) },
          'batch transaction failed; applying its messages one by one',
        );
        const failed: Item | undefined = current;
        if (!failed) return this.applyOneByOne(batch, run, controls);
        // One by one up to the message that failed; the rest of the run goes back to the fast path.
        const prior = { item: failed, failure: nextFailure(undefined, error, 1, failed.policy!) };
        const failedAt = run.indexOf(failed) + 1;
        if (!(await this.applyOneByOne(batch, run.slice(0, failedAt), controls, prior))) return false;
        return this.applyRun(batch, run.slice(failedAt), controls);
      }
      this.deps.afterDbCommit?.();
      await this.parkStep.committed(parking, replays);
    }
    await controls.commit(run[covered - 1].message);
    outcomes.forEach((outcome, item) => this.count(item, outcome));
    return covered === run.length;
  }

  /** Slow path: each message in its own transaction, through the retry step. */
  private async applyOneByOne(
    batch: Batch,
    run: Item[],
    controls: BatchControls,
    prior?: { item: Item; failure: Failure },
  ): Promise<boolean> {
    for (const item of run) {
      const from = prior?.item === item ? { failure: prior.failure, waited: false } : undefined;
      if (item.handled && !(await this.applyOne(batch, item, controls, from))) return false;
      await controls.commit(item.message);
      if (controls.shouldStop()) return false;
    }
    return true;
  }

  /** One message until it is applied, dead-lettered or handed back to wait; true when its offset may be committed. */
  private async applyOne(
    batch: Batch,
    item: Item,
    controls: BatchControls,
    from?: { failure: Failure; waited: boolean },
  ): Promise<boolean> {
    const { dataSource, group, holds } = this.deps;
    const handled = item.handled!;
    const { event } = handled;
    const outcome = await retry(
      async (attempt) => {
        let parking: ParkingDecisions | undefined;
        let replays: ClaimedParkedEvent[] = [];
        const result = await dataSource.transaction(async (manager) => {
          const claims = await ProcessedEventClaims.claim(manager, group, [event.id]);
          parking = await this.parkStep.begin(manager, [{ topic: batch.topic, message: item.message }]);
          const pending = new PendingWrites();
          const tx = { manager, events: [event], pending, claims };
          const applied = await this.parkStep.handle(handled, attempt, tx, parking);
          await pending.flush(manager);
          replays = (await parking?.finish(manager)) ?? [];
          await claims.releaseUnused(manager);
          if (applied === 'applied' && (attempt > 1 || handled.replayCount > 0))
            await this.markProcessed(manager, item, attempt);
          return applied;
        });
        this.deps.afterDbCommit?.();
        await this.parkStep.committed(parking, replays);
        return result;
      },
      item.policy!,
      this.deps.retry,
      this.hooks.for({ ...handled, eventId: event.id, type: event.type }, controls),
      from,
    );
    switch (outcome.kind) {
      case 'done':
        this.count(item, outcome.value);
        return true;
      case 'interrupted':
        return false;
      case 'waiting':
        holds.hold({
          topic: batch.topic,
          partition: batch.partition,
          offset: item.message.offset,
          failure: outcome.failure,
          retryAt: outcome.retryAt,
          deadlineAt: outcome.deadlineAt,
        });
        return false;
      case 'gave-up':
        return this.deadLetter(batch, item.message, event.id, event.type, outcome.failure);
    }
  }

  /** The give-up step; a dead letter or parking the broker or database did not take makes the partition wait. */
  private async deadLetter(
    batch: Batch,
    message: KafkaMessage,
    eventId: string | undefined,
    type: string,
    failure: Failure,
  ): Promise<boolean> {
    const { topic, partition } = batch;
    const result = await this.giveUpStep.giveUp({ topic, partition, message, eventId, type }, failure);
    if (!result.done) this.deps.holds.hold({ topic, partition, offset: message.offset, retryAt: result.retryAt });
    return result.done;
  }

  /** After failures or a replay there is a status row saying otherwise; it turns `processed` with the effect. */
  private markProcessed(manager: EntityManager, item: Item, attempts: number): Promise<Date | null> {
    return recordEventStatus(manager, {
      group: this.deps.group,
      eventId: item.handled!.event.id,
      status: 'processed',
      attempts,
      lastError: null,
    });
  }

  private item(batch: Batch, message: KafkaMessage, parsed: Exclude<Parsed, { kind: 'poison' }>): Item {
    const handler = parsed.kind === 'event' ? this.handlerOf(parsed.event.type) : undefined;
    if (parsed.kind !== 'event' || !handler) return { message };
    const { topic, partition } = batch;
    const handled = { topic, partition, message, event: parsed.event, replayCount: parsed.replayCount };
    return { message, handled: { ...handled, apply: handler.apply }, policy: handler.policy };
  }

  /** The handler of the type, else the group's handler of every type (ANY_EVENT_TYPE), if it has one. */
  private handlerOf(type: string): CompiledHandler | undefined {
    return this.deps.handlers.get(type) ?? this.deps.handlers.get(ANY_EVENT_TYPE);
  }

  private count(item: Item, outcome: Outcome): void {
    const labels = { group: this.deps.group, type: item.handled!.event.type };
    if (outcome === 'applied') this.deps.metrics.processed.inc(labels);
    else if (outcome === 'duplicate') this.deps.metrics.duplicates.inc(labels);
  }
}
