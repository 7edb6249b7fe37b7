import { WrittenRows } from './pending-writes';
import { dltTopic as defaultDltTopic, replayTopic as defaultReplayTopic } from '@app/contracts';
import { Consumer, EachBatchPayload, Kafka, Partitioners, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { DEFAULT_RETRY_POLICY } from './backoff';
import { BatchProcessor } from './batch-processor';
import { BreakerSettings, DEFAULT_BREAKER_SETTINGS } from './breaker/dependency-breaker';
import { GroupBreakers } from './breaker/group-breakers';
import { errorMessage } from './classify-error';
import { ConsumerMetrics } from './consumer-metrics';
import { Concurrency } from './consumer-states';
import { HandlerRegistration } from './handler';
import { KeyParking } from './parking/key-parking';
import { Unparker } from './parking/unparker';
import { OffsetCommits } from './offset-commits';
import { PartitionHolds } from './partition-holds';
import { DeadLetterStep } from './steps/dead-letter.middleware';
import { DeadLetterProducer } from './steps/dead-letter.producer';
import { CompiledHandler } from './steps/message';
import { KeyedCommitter } from './keyed/keyed-committer';
import { KeyedDispatcher, KeyedSettings } from './keyed/keyed-dispatcher';
import { KeyedRecords } from './keyed/keyed-records';

/** Heartbeat errors that mean the group is rebalancing: the batches in hand stop after their current message. */
const REBALANCING = new Set(['REBALANCE_IN_PROGRESS', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID', 'NOT_COORDINATOR']);
export const DEFAULT_RETRY_CEILING_MS = 3_600_000;
export const DEFAULT_UNPARK_RESEND_MS = 60_000;
export const DEFAULT_COMMIT_INTERVAL_MS = 500;
export const DEFAULT_KEYED_SETTINGS: KeyedSettings = { perPartition: 32, maxInFlight: 128, windowSize: 1_000 };

/**
 * What a group does with the later events of a key whose event it dead-lettered. `none` (the default): applies them
 * as they come. `park`: holds the key back (parks it) until the dead letter is resolved or purged, storing its later
 * events behind it, then applies them in their order.
 */
export type KeyOrder = 'none' | 'park';

export interface ConsumerRuntimeOptions {
  /** The service's name: its consumer group, its `processed_events` and status rows, its dead letters. */
  group: string;
  /** The Kafka group id; the group name unless a deployment namespaces it. */
  groupId?: string;
  /** The topics the service consumes (e.g. `shop.orders`). */
  topics: string[];
  /** Default `<group>.dlt`. */
  dltTopic?: string;
  /** Default `<group>.replay`; always consumed too. */
  replayTopic?: string;
  handlers: HandlerRegistration[];
  kafka: Kafka;
  dataSource: DataSource;
  logger: Logger;
  metrics: ConsumerMetrics;
  /** Most events applied in one transaction (default 500). */
  maxBatchSize?: number;
  /** Partitions processed at the same time (default 1); each partition stays sequential. */
  partitionsConsumedConcurrently?: number;
  /** How long the broker waits for a silent member before reassigning its partitions (default 30 s). */
  sessionTimeoutMs?: number;
  /** How often the member heartbeats (default a third of the session timeout, at most 3 s). */
  heartbeatIntervalMs?: number;
  /** How long a rebalance waits for every member to rejoin before it goes on without the late ones (default 60 s). */
  rebalanceTimeoutMs?: number;
  /** A message waiting on a down dependency is dead-lettered this long after its first failure (default 1 h). */
  retryCeilingMs?: number;
  /** When the group's breaker for a dependency opens, and how often it probes (defaults DEFAULT_BREAKER_SETTINGS). */
  breaker?: Partial<BreakerSettings>;
  /** Per-key order through failures (default `none`). */
  keyOrder?: KeyOrder;
  /** `park`: a parked event sent for replay and not applied after this long is sent again (default 60 s). */
  unparkResendMs?: number;
  /** `key`: records of different keys at once (default `batch`). */
  concurrency?: Concurrency;
  /** With `concurrency: 'key'`: the bounds (defaults DEFAULT_KEYED_SETTINGS). */
  keyed?: Partial<KeyedSettings>;
  /** Offset commits of the group go out at most this often, all partitions in one request (default 500 ms). */
  commitIntervalMs?: number;
  /** Called after each database commit, before the offset commit: the crash tests kill the process here. */
  afterDbCommit?: (written: WrittenRows) => void;
}

/** What both modes of a group are built from. */
interface GroupParts {
  consumer: Consumer;
  breakers: GroupBreakers;
  deadLetters: DeadLetterStep;
  parking?: KeyParking;
}

/**
 * One consumer group: a kafkajs consumer with auto-commit off whose batches go through the BatchProcessor, and an
 * idempotent producer for dead letters. `stop()` lets the current message finish and commit, then leaves the group.
 */
export class ConsumerRuntime {
  readonly group: string;
  readonly topics: string[];
  readonly dltTopic: string;
  readonly replayTopic: string;
  private consumer?: Consumer;
  private producer?: Producer;
  private stopping = false;
  /** A heartbeat said the group is rebalancing; cleared when this member has joined again. */
  private rebalancing = false;
  private readonly inFlight = new Set<Promise<void>>();
  private holds?: PartitionHolds;
  private breakers?: GroupBreakers;
  private unparker?: Unparker;
  private dispatcher?: KeyedDispatcher;
  private commits?: OffsetCommits;

  constructor(private readonly options: ConsumerRuntimeOptions) {
    this.group = options.group;
    this.dltTopic = options.dltTopic ?? defaultDltTopic(options.group);
    this.replayTopic = options.replayTopic ?? defaultReplayTopic(options.group);
    this.topics = [...options.topics, this.replayTopic];
  }

  async start(): Promise<void> {
    const { kafka, logger, group } = this.options;
    // acks=all and one request in flight; not idempotent, so that retries can stay few and a dead-letter topic that
    // cannot take writes shows up in seconds. A rare duplicate dead letter is harmless: the dead-letter store dedupes.
    this.producer = kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      maxInFlightRequests: 1,
      retry: { retries: 3, initialRetryTime: 200 },
    });
    await this.producer.connect();
    const sessionTimeout = this.options.sessionTimeoutMs ?? 30_000;
    const consumer = kafka.consumer({
      groupId: this.options.groupId ?? group,
      sessionTimeout,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? Math.min(3_000, Math.floor(sessionTimeout / 3)),
      rebalanceTimeout: this.options.rebalanceTimeoutMs ?? 60_000,
      maxWaitTimeInMs: 500,
      // Fetched-but-unprocessed messages are most of the process's memory; a batch of 256 KB is ~800 order events.
      maxBytesPerPartition: 256 * 1024,
      maxBytes: 2 * 1024 * 1024,
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topics: this.topics, fromBeginning: true });
    consumer.on(consumer.events.CRASH, ({ payload }) =>
      logger.error({ group, err: payload.error?.message, restart: payload.restart }, 'consumer crashed'),
    );
    const { dataSource, metrics } = this.options;
    const breakers = new GroupBreakers({
      group,
      settings: { ...DEFAULT_BREAKER_SETTINGS, ...this.options.breaker },
      dataSource,
      metrics,
      logger,
    });
    const parking =
      this.options.keyOrder === 'park'
        ? new KeyParking({ group, replayTopic: this.replayTopic, producer: this.producer, dataSource, logger })
        : undefined;
    const producer = new DeadLetterProducer({
      group,
      dltTopic: this.dltTopic,
      producer: this.producer,
      dataSource,
      logger,
      metrics,
    });
    const deadLetters = new DeadLetterStep({ group, dataSource, logger, producer, parking });
    this.commits = new OffsetCommits({
      group,
      consumer,
      logger,
      minIntervalMs: this.options.commitIntervalMs ?? DEFAULT_COMMIT_INTERVAL_MS,
    });
    consumer.on(consumer.events.REBALANCING, () => void this.commits?.flush());
    const run =
      this.options.concurrency === 'key'
        ? this.keyed({ consumer, breakers, deadLetters, parking })
        : this.batches({ consumer, breakers, deadLetters, parking });
    if (parking) {
      this.unparker = new Unparker(parking, {
        resendAfterMs: this.options.unparkResendMs ?? DEFAULT_UNPARK_RESEND_MS,
      });
      this.unparker.start();
    }
    await run();
    logger.info(
      {
        group,
        groupId: this.options.groupId ?? group,
        topics: this.topics,
        dltTopic: this.dltTopic,
        keyOrder: this.options.keyOrder ?? 'none',
        concurrency: this.options.concurrency ?? 'batch',
        ...(this.options.concurrency === 'key' && { keyed: this.keyedSettings() }),
      },
      'consumer group running',
    );
  }

  /**
   * One record at a time per partition, through the BatchProcessor; waits hand the partition back (PartitionHolds).
   * Returns what starts the consumer.
   */
  private batches({ consumer, breakers, deadLetters, parking }: GroupParts): () => Promise<void> {
    const { logger, group, dataSource, metrics } = this.options;
    const holds = new PartitionHolds(
      consumer,
      (dependency) => breakers.isOpen(dependency),
      (action, topic, partition, error) =>
        logger.warn(
          { group, topic, partition, err: errorMessage(error) },
          `kafkajs refused to ${action} the partition (its consumer is restarting); it is fetched afresh from the committed offset`,
        ),
    );
    breakers.attach(holds);
    this.holds = holds;
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      this.rebalancing = false;
      holds.reassigned(payload.memberAssignment);
      this.commits?.retain(payload.memberAssignment);
      logger.info({ group, memberId: payload.memberId, assignment: payload.memberAssignment }, 'partitions assigned');
    });
    const processor = new BatchProcessor({
      group,
      groupId: this.options.groupId ?? group,
      dataSource,
      logger,
      metrics,
      handlers: this.compileHandlers(),
      maxBatchSize: this.options.maxBatchSize ?? 500,
      retry: { ceilingMs: this.options.retryCeilingMs ?? DEFAULT_RETRY_CEILING_MS, inlineWaitMaxMs: 1_000 },
      deadLetters,
      holds,
      breakers,
      parking,
      afterDbCommit: this.options.afterDbCommit,
    });
    return () =>
      consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
        eachBatch: (payload) => this.track(this.processBatch(processor, payload)),
      });
  }

  /**
   * Records of different keys at once (KeyedDispatcher): kafkajs's batch callback only hands the records over and
   * returns, so fetching goes on while records wait on providers; offsets are committed by the dispatcher. Returns what
   * starts the consumer.
   */
  private keyed({ consumer, breakers, deadLetters, parking }: GroupParts): () => Promise<void> {
    const { logger, group, dataSource, metrics } = this.options;
    const maxBatchSize = this.options.maxBatchSize ?? 500;
    const records = new KeyedRecords({
      group,
      dataSource,
      logger,
      metrics,
      handlers: this.compileHandlers(),
      retry: { ceilingMs: this.options.retryCeilingMs ?? DEFAULT_RETRY_CEILING_MS, inlineWaitMaxMs: 0 },
      breakers,
      deadLetters,
      committer: new KeyedCommitter({
        group,
        dataSource,
        logger,
        maxBatchSize,
        parking,
        afterDbCommit: this.options.afterDbCommit,
      }),
      parks: parking !== undefined,
      groupId: this.options.groupId ?? group,
    });
    const dispatcher = new KeyedDispatcher({
      group,
      consumer,
      commits: this.commits!,
      records,
      settings: this.keyedSettings(),
      logger,
      metrics,
      isOpen: (dependency) => breakers.isOpen(dependency),
    });
    breakers.attach(dispatcher);
    this.dispatcher = dispatcher;
    consumer.on(consumer.events.REBALANCING, () => dispatcher.rebalancing());
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => this.commits?.retain(payload.memberAssignment));
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      dispatcher.assigned(payload.memberAssignment);
      logger.info({ group, memberId: payload.memberId, assignment: payload.memberAssignment }, 'partitions assigned');
    });
    return () =>
      consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
        eachBatch: ({ batch, resolveOffset }) =>
          this.track(dispatcher.intake(batch, (offset) => resolveOffset(offset))),
      });
  }

  private keyedSettings(): KeyedSettings {
    return { ...DEFAULT_KEYED_SETTINGS, ...this.options.keyed };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    // kafkajs ignores commitOffsets once its runner stops: let the batch in hand commit before disconnecting.
    await Promise.allSettled([...this.inFlight]);
    await this.dispatcher?.stop();
    await this.commits?.flush();
    this.commits?.close();
    await this.unparker?.stop();
    this.holds?.clear();
    await this.breakers?.stop();
    await this.consumer?.disconnect();
    await this.producer?.disconnect();
  }

  private async track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    try {
      await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  private async processBatch(
    processor: BatchProcessor,
    { batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload,
  ): Promise<void> {
    const consumer = this.consumer!;
    // kafkajs heartbeats only when asked; a handler that works longer than the session timeout must not cost the
    // group its membership, so a timer keeps asking while the batch is in hand (kafkajs throttles the requests).
    // A heartbeat that finds the group rebalancing stops the batches in hand after their current message, so that
    // this member rejoins in a moment; kafkajs's own heartbeat after the batch then starts the rejoin.
    const beat = () =>
      heartbeat().catch((error: { type?: string }) => {
        if (error.type && REBALANCING.has(error.type)) this.rebalancing = true;
      });
    const keepAlive = setInterval(beat, 1_000);
    try {
      await processor.process(batch, {
        heartbeat: beat,
        shouldStop: () => this.stopping || this.rebalancing || !isRunning() || isStale(),
        commit: async (message) => {
          resolveOffset(message.offset);
          this.commits!.mark(batch.topic, batch.partition, BigInt(message.offset) + 1n);
        },
      });
    } finally {
      clearInterval(keepAlive);
    }
  }

  private compileHandlers(): Map<string, CompiledHandler> {
    const compiled = new Map<string, CompiledHandler>();
    for (const { type, handler, policy } of this.options.handlers) {
      if (compiled.has(type)) throw new Error(`group ${this.group} has two handlers for ${type}`);
      compiled.set(type, {
        type,
        handler,
        policy: { retry: { ...DEFAULT_RETRY_POLICY, ...policy?.retry }, isPermanent: policy?.isPermanent },
      });
    }
    return compiled;
  }
}
