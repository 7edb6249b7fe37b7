import { HOOKRAIL_HEADERS } from '@app/contracts';
import { ParkedKeysRepository } from '@app/dead-letters';
import { KafkaMessage } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { GroupBreakers } from '../breaker/group-breakers';
import { errorMessage } from '../classify-error';
import { ConsumerMetrics } from '../consumer-metrics';
import { keyOf, replayOf } from '../parking/message-keys';
import { ProcessedEventClaims } from '../processed-events.repository';
import { GroupRetryHooks } from '../retry-hooks';
import { DeadLetterStep } from '../steps/dead-letter.middleware';
import { CompiledHandler, HandledMessage, Reading } from '../steps/message';
import { identityOf, MessageReader, poisonFailure, readerOf } from '../steps/parse-and-validate.middleware';
import { Failure, retry, RetrySettings } from '../steps/retry.middleware';
import { processSpan } from '../steps/trace.middleware';
import { DeferredContext } from './deferred-context';
import { CommitOutcome, KeyedCommitter } from './keyed-committer';

/** A fetched record of a group that applies records concurrently by key, with what is known of it so far. */
export interface KeyedItem {
  topic: string;
  partition: number;
  message: KafkaMessage;
  parsed: Reading;
  /** The pre-check found the event applied by this group already: its handler is not run again. */
  applied: boolean;
  /** The failure the record waits with: its next attempt carries it on. */
  from?: { failure: Failure; waited: true };
  /** The group gave up on it and its dead letter or parking was not taken yet: only that is tried again. */
  givingUp?: Failure;
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
 * One record's walk in a group that applies records concurrently by key: parse and validate (poison is given up on
 * at once), then attempts — the handler outside any transaction (its provider calls overlap with other keys'), its
 * queued writes committed with the dedupe row by the KeyedCommitter — until one succeeds, the retry step says wait
 * (the record's key waits, not its partition) or give up (dead letter, and the key parked where the group parks).
 */
export class KeyedRecords {
  private readonly hooks: GroupRetryHooks;
  private readonly read: MessageReader;
  /** The dependency each event type was last seen failing on: while its breaker is open, no new call starts. */
  private readonly dependencyOfType = new Map<string, string>();

  constructor(private readonly deps: KeyedRecordsDeps) {
    this.hooks = new GroupRetryHooks(deps);
    this.read = readerOf(deps.handlers);
  }

  /**
   * Parses a fetched run of one partition; with `precheck`, one query tells which of its events the group applied
   * already (their handlers are not run again).
   */
  async prepare(topic: string, partition: number, messages: KafkaMessage[], precheck = true): Promise<KeyedItem[]> {
    const items = messages.map((message): KeyedItem => ({
      topic,
      partition,
      message,
      parsed: this.read(topic, partition, message),
      applied: false,
    }));
    const fresh = precheck ? items.filter((item) => item.parsed.kind === 'event' && isLive(item.message)) : [];
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
    return item.parsed.kind === 'ignored';
  }

  /** The dependency whose open breaker holds this record back before its first call, if any. */
  heldBy(item: KeyedItem): string | undefined {
    if (item.parsed.kind !== 'event' || item.from || item.givingUp) return undefined;
    const dependency = this.dependencyOfType.get(item.parsed.event.type);
    if (!dependency || !this.deps.breakers.isOpen(dependency)) return undefined;
    item.heldFor = dependency;
    return dependency;
  }

  async run(item: KeyedItem, stopping: () => boolean): Promise<Verdict> {
    if (item.givingUp) return this.giveUp(item, item.givingUp);
    const { parsed } = item;
    if (parsed.kind === 'poison') {
      const failure = poisonFailure(parsed.error);
      this.hooks.log({ ...item, eventId: parsed.eventId }, failure, { retry: false });
      return this.giveUp(item, failure);
    }
    if (parsed.kind !== 'event') return { kind: 'done' };
    const { event, handler } = parsed;
    const source = { ...item, eventId: event.id, type: event.type };
    const outcome = await retry(
      (attempt) => processSpan(this.deps.groupId ?? this.deps.group, parsed, () => this.attempt(item, parsed, attempt)),
      handler.policy,
      this.deps.retry,
      this.hooks.for(source, { heartbeat: async () => {}, shouldStop: stopping }),
      item.from,
    );
    switch (outcome.kind) {
      case 'done': {
        if (item.heldFor) this.deps.breakers.answered(item.heldFor);
        item.heldFor = undefined;
        this.deps.metrics.count(this.deps.group, event.type, outcome.value);
        return { kind: 'done' };
      }
      case 'gave-up':
        return this.giveUp(item, outcome.failure);
      case 'interrupted':
      case 'waiting': {
        const { failure } = outcome;
        if (failure.dependency) this.dependencyOfType.set(event.type, failure.dependency);
        item.from = { failure, waited: true };
        const retryAt = outcome.kind === 'waiting' ? outcome.retryAt : Date.now() + 1_000;
        const deadlineAt = outcome.kind === 'waiting' ? outcome.deadlineAt : undefined;
        return { kind: 'wait', retryAt, deadlineAt, dependency: failure.dependency };
      }
    }
  }

  /** One attempt: the handler (unless a pre-check says it is not needed), then the commit with the dedupe row. */
  private async attempt(item: KeyedItem, message: HandledMessage, attempt: number): Promise<CommitOutcome> {
    let skip = item.applied || (await this.parkedAlready(item));
    for (;;) {
      const writes = skip ? undefined : await this.handle(message, attempt);
      const outcome = await this.deps.committer.commit({ ...message, writes, attempt });
      if (outcome !== 'rerun') return outcome;
      item.applied = false;
      skip = false;
    }
  }

  private async handle(message: HandledMessage, attempt: number) {
    const { group, logger, metrics } = this.deps;
    const { topic, partition, event, replayCount, handler } = message;
    const ctx = new DeferredContext(
      group,
      topic,
      partition,
      message.message.offset,
      event,
      attempt,
      replayCount,
      logger,
    );
    const stop = metrics.handlerSeconds.startTimer({ group, type: event.type });
    try {
      await handler.handler(event, ctx);
    } finally {
      stop();
    }
    return ctx.writes;
  }

  /** In a group that parks keys: whether this live record's key is parked (then it is stored, not handled). */
  private async parkedAlready(item: KeyedItem): Promise<boolean> {
    const key = keyOf(item.message);
    if (!this.deps.parks || key === null || !isLive(item.message)) return false;
    return new ParkedKeysRepository(this.deps.dataSource.manager).isParked(this.deps.group, key);
  }

  private async giveUp(item: KeyedItem, failure: Failure): Promise<Verdict> {
    const { topic, partition, message, parsed } = item;
    const result = await this.deps.deadLetters.giveUp({ topic, partition, message, ...identityOf(parsed) }, failure);
    if (result.done) return { kind: 'done' };
    item.givingUp = failure;
    return { kind: 'wait', retryAt: result.retryAt };
  }
}

function eventOf(item: KeyedItem) {
  return (item.parsed as Extract<Reading, { kind: 'event' }>).event;
}

/** Neither a replay nor a parked event sent back: those always run their handler. */
function isLive(message: KafkaMessage): boolean {
  return replayOf(message) === undefined && !message.headers?.[HOOKRAIL_HEADERS.replayCount];
}
