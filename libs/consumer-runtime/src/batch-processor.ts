import { CloudEvent, HOOKRAIL_HEADERS } from '@app/contracts';
import { Batch, KafkaMessage, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import { backoffDelay, DEFAULT_RETRY_POLICY } from './backoff';
import { classifyError, errorClassName, errorMessage } from './classify-error';
import { isDeadAlready, recordEventStatus } from './consumer-event-status.repository';
import { ConsumerMetrics } from './consumer-metrics';
import { FailurePolicy } from './handler';
import { MessageContext } from './message-context';
import { PendingWrites } from './pending-writes';
import { ProcessedEventClaims } from './processed-events.repository';
import { buildDeadLetter, produceDeadLetter } from './steps/dead-letter.middleware';
import { dedupe, DedupeOutcome } from './steps/dedupe.middleware';
import { parseAndValidate } from './steps/parse-and-validate.middleware';
import { Failure, retry } from './steps/retry.middleware';

/** A handler with its steps composed: dedupe inside the transaction, and the failure policy for retry. */
export interface CompiledHandler {
  type: string;
  apply: ReturnType<typeof dedupe>;
  policy: FailurePolicy;
}

export interface BatchProcessorDeps {
  group: string;
  dltTopic: string;
  dataSource: DataSource;
  producer: Producer;
  logger: Logger;
  metrics: ConsumerMetrics;
  handlers: Map<string, CompiledHandler>;
  /** Most events applied in one database transaction. */
  maxBatchSize: number;
  /** Runs after every database commit and before the offset commit (fault injection in crash tests). */
  afterDbCommit?: () => void;
}

/** What the kafkajs batch gives the processor: liveness, and the one way to move the group's offset. */
export interface BatchControls {
  heartbeat(): Promise<void>;
  /** The consumer is stopping or lost the partition: finish the current message, start no new one. */
  shouldStop(): boolean;
  /** Commits `message.offset + 1` for the batch's partition. */
  commit(message: KafkaMessage): Promise<void>;
}

type Item = { message: KafkaMessage; event?: CloudEvent; replayCount: number; handler?: CompiledHandler };

const DLT_RETRY = { maxAttempts: Infinity, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * Applies one kafkajs batch (one partition, in offset order). The fast path applies a run of events in one
 * transaction with one dedupe insert; if anything in it fails, the transaction rolls back, the run up to the message
 * that failed is applied one message at a time with retries and dead-lettering, and the rest goes back to the fast
 * path. Either way an offset is committed only after the transaction holding its effect committed (or its dead
 * letter was acknowledged).
 */
export class BatchProcessor {
  private deadLetterFailures = 0;

  constructor(private readonly deps: BatchProcessorDeps) {}

  async process(batch: Batch, controls: BatchControls): Promise<void> {
    const { handlers, maxBatchSize } = this.deps;
    let run: Item[] = [];
    for (const message of batch.messages) {
      if (controls.shouldStop()) break;
      const parsed = parseAndValidate(message, (type) => handlers.has(type));
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
        this.logFailure(batch, message, parsed.eventId, failure, false);
        if (!(await this.deadLetter(batch, message, parsed.eventId, parsed.type ?? 'unknown', failure, controls)))
          return;
        await controls.commit(message);
        continue;
      }
      const item: Item =
        parsed.kind === 'event'
          ? { message, event: parsed.event, replayCount: parsed.replayCount, handler: handlers.get(parsed.event.type) }
          : { message, replayCount: 0 };
      run.push(item);
      if (run.length >= maxBatchSize && !(await this.applyRun(batch, run.splice(0), controls))) return;
    }
    await this.applyRun(batch, run, controls);
  }

  /** Fast path: the whole run in one transaction. Returns false when processing of this batch must stop. */
  private async applyRun(batch: Batch, run: Item[], controls: BatchControls): Promise<boolean> {
    if (run.length === 0) return true;
    const events = run.filter((item) => item.handler);
    const outcomes: DedupeOutcome[] = [];
    if (events.length > 0) {
      let current: Item | undefined;
      try {
        await this.deps.dataSource.transaction(async (manager) => {
          const claims = await ProcessedEventClaims.claim(
            manager,
            this.deps.group,
            events.map((item) => item.event!.id),
          );
          const pending = new PendingWrites();
          for (const item of events) {
            current = item;
            const outcome = await this.applyTimed(item, this.context(batch, item, 1, manager, pending), claims);
            if (outcome === 'applied' && item.replayCount > 0) await this.markProcessed(manager, item, 1);
            outcomes.push(outcome);
            current = undefined;
            await controls.heartbeat();
          }
          await pending.flush(manager);
        });
      } catch (error) {
        const now = new Date();
        const prior = current
          ? {
              item: current,
              failure: {
                error,
                errorClass: classifyError(error, current.handler!.policy.isPermanent),
                attempts: 1,
                firstFailureAt: now,
                lastFailureAt: now,
              },
            }
          : undefined;
        this.deps.logger.debug(
          { group: this.deps.group, topic: batch.topic, partition: batch.partition, err: errorMessage(error) },
          'batch transaction failed; applying its messages one by one',
        );
        if (!prior) return this.applyOneByOne(batch, run, controls);
        // One by one up to the message that failed; the rest of the run goes back to the fast path.
        const failedAt = run.indexOf(prior.item) + 1;
        if (!(await this.applyOneByOne(batch, run.slice(0, failedAt), controls, prior))) return false;
        return this.applyRun(batch, run.slice(failedAt), controls);
      }
      this.deps.afterDbCommit?.();
    }
    await controls.commit(run[run.length - 1].message);
    events.forEach((item, index) => this.count(item, outcomes[index]));
    return true;
  }

  /** Slow path: each message in its own transaction, retried per its handler's policy, dead-lettered at the end. */
  private async applyOneByOne(
    batch: Batch,
    run: Item[],
    controls: BatchControls,
    prior?: { item: Item; failure: Failure },
  ): Promise<boolean> {
    for (const item of run) {
      if (
        item.handler &&
        !(await this.applyWithRetry(batch, item, controls, prior?.item === item ? prior.failure : undefined))
      )
        return false;
      await controls.commit(item.message);
      if (controls.shouldStop()) return false;
    }
    return true;
  }

  private async applyWithRetry(batch: Batch, item: Item, controls: BatchControls, prior?: Failure): Promise<boolean> {
    const { dataSource, group, metrics } = this.deps;
    const event = item.event!;
    const handler = item.handler!;
    const outcome = await retry(
      async (attempt) => {
        const result = await dataSource.transaction(async (manager) => {
          const claims = await ProcessedEventClaims.claim(manager, group, [event.id]);
          const pending = new PendingWrites();
          const applied = await this.applyTimed(item, this.context(batch, item, attempt, manager, pending), claims);
          await pending.flush(manager);
          if (applied === 'applied' && (attempt > 1 || item.replayCount > 0))
            await this.markProcessed(manager, item, attempt);
          return applied;
        });
        this.deps.afterDbCommit?.();
        return result;
      },
      handler.policy,
      {
        onFailure: async (failure, willRetry) => {
          this.logFailure(batch, item.message, event.id, failure, willRetry);
          if (!willRetry) return;
          metrics.retries.inc({ group, type: event.type });
          await recordEventStatus(dataSource, {
            group,
            eventId: event.id,
            status: 'retrying',
            attempts: failure.attempts,
            lastError: describe(failure.error),
          }).catch((error: Error) =>
            this.deps.logger.warn(
              { group, eventId: event.id, err: error.message },
              'could not record the retrying status',
            ),
          );
        },
        wait: (ms) => this.wait(ms, controls),
      },
      prior,
    );
    if (outcome.kind === 'done') {
      this.count(item, outcome.value);
      return true;
    }
    if (outcome.kind === 'interrupted') return false;
    return this.deadLetter(batch, item.message, event.id, event.type, outcome.failure, controls);
  }

  /** Produces the dead letter; true when the broker acknowledged it and the offset may move past the message. */
  private async deadLetter(
    batch: Batch,
    message: KafkaMessage,
    eventId: string | undefined,
    type: string,
    failure: Failure,
    controls: BatchControls,
  ): Promise<boolean> {
    const { group, dltTopic, producer, logger, metrics, dataSource } = this.deps;
    const fields = { group, eventId, topic: batch.topic, partition: batch.partition, offset: message.offset, dltTopic };
    if (eventId && !isReplay(message) && (await isDeadAlready(dataSource, group, eventId))) {
      // Another copy of an event this group already gave up on (the relay publishes at least once): its dead
      // letter is in the store, and a second one would have the operator replay the same event twice.
      logger.warn(fields, 'a copy of an event already dead-lettered; not dead-lettered again');
      return true;
    }
    try {
      await produceDeadLetter(
        producer,
        dltTopic,
        buildDeadLetter({ group, topic: batch.topic, partition: batch.partition, message, eventId }, failure),
      );
    } catch (error) {
      this.deadLetterFailures++;
      logger.error(
        { ...fields, err: errorMessage(error) },
        'could not produce the dead letter; offset not committed, the message will be processed again',
      );
      await this.wait(
        backoffDelay(this.deadLetterFailures, DLT_RETRY, () => 1),
        controls,
      );
      return false;
    }
    this.deadLetterFailures = 0;
    metrics.deadLetters.inc({ group, type });
    logger.warn({ ...fields, errorClass: errorClassName(failure.error), attempts: failure.attempts }, 'dead-lettered');
    if (eventId) {
      await recordEventStatus(dataSource, {
        group,
        eventId,
        status: 'dead',
        attempts: failure.attempts,
        lastError: describe(failure.error),
      }).catch((error: Error) => logger.warn({ ...fields, err: error.message }, 'could not record the dead status'));
    }
    return true;
  }

  /** After failures or a replay there is a status row saying otherwise; it turns `processed` with the effect. */
  private markProcessed(manager: EntityManager, item: Item, attempts: number): Promise<void> {
    return recordEventStatus(manager, {
      group: this.deps.group,
      eventId: item.event!.id,
      status: 'processed',
      attempts,
      lastError: null,
    });
  }

  private async applyTimed(item: Item, ctx: MessageContext, claims: ProcessedEventClaims): Promise<DedupeOutcome> {
    const stop = this.deps.metrics.handlerSeconds.startTimer({ group: this.deps.group, type: item.event!.type });
    try {
      return await item.handler!.apply(item.event!, ctx, claims);
    } finally {
      stop();
    }
  }

  private context(
    batch: Batch,
    item: Item,
    attempt: number,
    manager: EntityManager,
    pending: PendingWrites,
  ): MessageContext {
    return new MessageContext(
      this.deps.group,
      batch.topic,
      batch.partition,
      item.message.offset,
      item.event!.id,
      attempt,
      item.replayCount,
      manager,
      pending,
      this.deps.logger,
    );
  }

  private count(item: Item, outcome: DedupeOutcome): void {
    const labels = { group: this.deps.group, type: item.event!.type };
    (outcome === 'applied' ? this.deps.metrics.processed : this.deps.metrics.duplicates).inc(labels);
  }

  private logFailure(
    batch: Batch,
    message: KafkaMessage,
    eventId: string | undefined,
    failure: Failure,
    willRetry: boolean,
  ): void {
    this.deps.logger.warn(
      {
        group: this.deps.group,
        eventId,
        topic: batch.topic,
        partition: batch.partition,
        offset: message.offset,
        attempt: failure.attempts,
        errorClass: errorClassName(failure.error),
        err: errorMessage(failure.error),
        willRetry,
      },
      willRetry ? 'attempt failed; will retry' : 'attempt failed; giving up',
    );
  }

  /** Sleeps in slices short enough to keep heartbeating; false if the consumer started stopping meanwhile. */
  private async wait(ms: number, controls: BatchControls): Promise<boolean> {
    const until = Date.now() + ms;
    while (!controls.shouldStop()) {
      const left = until - Date.now();
      if (left <= 0) return true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, 1000)));
      await controls.heartbeat();
    }
    return false;
  }
}

export const defaultFailurePolicy = (): FailurePolicy => ({ retry: { ...DEFAULT_RETRY_POLICY } });

function describe(error: unknown): string {
  return `${errorClassName(error)}: ${errorMessage(error)}`;
}

function isReplay(message: KafkaMessage): boolean {
  return Number(message.headers?.[HOOKRAIL_HEADERS.replayCount]?.toString() ?? 0) > 0;
}
