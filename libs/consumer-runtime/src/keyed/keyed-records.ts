import { HOOKRAIL_HEADERS } from '@app/contracts';
import { ParkedKeysRepository } from '@app/dead-letters';
import { KafkaMessage } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { GroupBreakers } from '../breaker/group-breakers';
import { errorMessage } from '../classify-error';
import { ConsumerMetrics } from '../consumer-metrics';
import { PendingWrites } from '../pending-writes';
import { keyOf, replayOf } from '../parking/message-keys';
import { walk } from '../pipeline';
import { ProcessedEventClaims } from '../processed-events.repository';
import { GroupRetryHooks } from '../retry-hooks';
import { DeadLetterStep } from '../steps/dead-letter.middleware';
import { handle } from '../steps/handle.middleware';
import { CompiledHandler, HandledMessage, Liveness, Reading } from '../steps/message';
import { MessageReader, readerOf } from '../steps/parse-and-validate.middleware';
import { Failure, RetrySettings } from '../steps/retry.middleware';
import { Delivery, Outcome, Walk } from '../steps/step';
import { timed } from '../steps/timing.middleware';
import { traced } from '../steps/trace.middleware';
import { KeyedCommitter } from './keyed-committer';

/** A fetched record of a group that applies records concurrently by key, with what is known of it so far. */
export interface KeyedItem extends Delivery {
  reading: Reading;
  /** The dependency it waited on before its first attempt (breaker open): its answer tells the breaker. */
  heldFor?: string;
}

/** What became of a record: finished, or to wait (its key with it) until `retryAt`. */
export type Verdict = { kind: 'done' } | { kind: 'wait'; retryAt: number; deadlineAt?: number; dependency?: string };

export interface KeyedRecordsDeps {
  group: string;
  dataSource: DataSource;
  logger: Logger;
  metrics: ConsumerMetrics;
  handlers: Map<string, CompiledHandler>;
  retry: RetrySettings;
  breakers: GroupBreakers;
  deadLetters: DeadLetterStep;
  committer: KeyedCommitter;
  /** Set in groups that park keys: a record of a parked key is stored behind it without running its handler. */
  parks: boolean;
  /** The Kafka group id, which spans name (`group` unless a deployment namespaces it). */
  groupId?: string;
}

/**
 * The key mode's side of the message walk both modes share (walk): its attempt runs the handler outside any
 * transaction (its provider calls overlap with other keys') and commits the rows it queued with the dedupe row through
 * the KeyedCommitter; its settle step finishes the record, or holds the record's key (not its partition) until its
 * retry, keeping the failure (or the dead letter still to take) for the next turn.
 */
export class KeyedRecords {
  private readonly read: MessageReader;
  private readonly walk: (item: KeyedItem) => Promise<Verdict>;
  private readonly handle: (handled: HandledMessage, attempt: number) => Promise<PendingWrites>;
  /** The dependency each event type was last seen failing on: while its breaker is open, no new call starts. */
  private readonly dependencyOfType = new Map<string, string>();

  constructor(private readonly deps: KeyedRecordsDeps) {
    this.read = readerOf(deps.handlers);
    const hooks = new GroupRetryHooks(deps);
    const attempt = traced(deps.groupId ?? deps.group)(this.attempt.bind(this));
    this.walk = this.settle(walk({ ...deps, hooks }, this.read, attempt));
    const handler = timed(deps)(handle(deps));
    this.handle = async (handled, n) => {
      const pending = new PendingWrites();
      await handler(handled, n, { events: [handled.event], pending });
      return pending;
    };
  }

  /**
   * Parses a fetched run of one partition; with `precheck`, one query tells which of its events the group applied
   * already (their handlers are not run again).
   */
  async prepare(
    topic: string,
    partition: number,
    messages: KafkaMessage[],
    controls: Liveness,
    precheck = true,
  ): Promise<KeyedItem[]> {
    const items = messages.map((message): KeyedItem => ({
      topic,
      partition,
      message,
      controls,
      reading: this.read(topic, partition, message),
    }));
    const fresh = precheck ? items.filter((item) => item.reading.kind === 'event' && isLive(item.message)) : [];
    try {
      const applied = await ProcessedEventClaims.appliedAmong(
        this.deps.dataSource,
        this.deps.group,
        fresh.map((item) => eventOf(item).id),
      );
      for (const item of fresh) item.applied = applied.has(eventOf(item).id);
    } catch (error) {
      // Only a hint: without it, a redelivered event runs its handler again and its commit finds it a duplicate.
      this.deps.logger.debug({ group: this.deps.group, err: errorMessage(error) }, 'applied-events pre-check failed');
    }
    return items;
  }

  /** Records the group does not handle: they need no turn of their key. */
  isIgnored(item: KeyedItem): boolean {
    return item.reading.kind === 'ignored';
  }

  /** The dependency whose open breaker holds this record back before its first call, if any. */
  heldBy(item: KeyedItem): string | undefined {
    if (item.reading.kind !== 'event' || item.from || item.givingUp) return undefined;
    const dependency = this.dependencyOfType.get(item.reading.event.type);
    if (!dependency || !this.deps.breakers.isOpen(dependency)) return undefined;
    item.heldFor = dependency;
    return dependency;
  }

  /** The record's turn: its walk, then what its key does next. */
  run(item: KeyedItem): Promise<Verdict> {
    return this.walk(item);
  }

  /** The key mode's settle step: the record is finished, or it waits (its key with it) with what it carries on. */
  private settle(next: Walk): (item: KeyedItem) => Promise<Verdict> {
    return async (item) => {
      const settled = await next(item);
      switch (settled.kind) {
        case 'done':
          if (item.heldFor && settled.value !== 'dead-lettered') this.deps.breakers.answered(item.heldFor);
          item.heldFor = undefined;
          return { kind: 'done' };
        case 'waiting': {
          const { failure, givingUp, retryAt, deadlineAt } = settled;
          if (givingUp) item.givingUp = givingUp;
          if (failure) this.waitsWith(item, failure);
          return { kind: 'wait', retryAt, deadlineAt, dependency: failure?.dependency };
        }
        case 'interrupted':
          if (settled.failure) this.waitsWith(item, settled.failure);
          return { kind: 'wait', retryAt: Date.now() + 1_000, dependency: settled.failure?.dependency };
      }
    };
  }

  /** The record's next turn carries its failure on; a dependency's failure holds its type's new records back. */
  private waitsWith(item: KeyedItem, failure: Failure): void {
    if (failure.dependency && item.reading.kind === 'event')
      this.dependencyOfType.set(item.reading.event.type, failure.dependency);
    item.from = { failure, waited: true };
  }

  /** One attempt: the handler (unless a pre-check says it is not needed), then the commit with the dedupe row. */
  private async attempt(handled: HandledMessage, attempt: number, delivery: Delivery): Promise<Outcome> {
    let skip = delivery.applied || (await this.parkedAlready(delivery));
    for (;;) {
      const writes = skip ? undefined : await this.handle(handled, attempt);
      const outcome = await this.deps.committer.commit({ ...handled, writes, attempt });
      if (outcome !== 'rerun') return outcome;
      delivery.applied = false;
      skip = false;
    }
  }

  /** In a group that parks keys: whether this live record's key is parked (then it is stored, not handled). */
  private async parkedAlready(delivery: Delivery): Promise<boolean> {
    const key = keyOf(delivery.message);
    if (!this.deps.parks || key === null || !isLive(delivery.message)) return false;
    return new ParkedKeysRepository(this.deps.dataSource.manager).isParked(this.deps.group, key);
  }
}

function eventOf(item: KeyedItem) {
  return (item.reading as Extract<Reading, { kind: 'event' }>).event;
}

/** Neither a replay nor a parked event sent back: those always run their handler. */
function isLive(message: KafkaMessage): boolean {
  return replayOf(message) === undefined && !message.headers?.[HOOKRAIL_HEADERS.replayCount];
}
