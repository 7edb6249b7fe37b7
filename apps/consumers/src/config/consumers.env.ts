import { CONSUMER_GROUPS } from '@app/contracts';
import { OutboundWebhooksEnv } from '@app/webhooks';
import { Transform, Type } from 'class-transformer';
import { ArrayNotEmpty, IsBoolean, IsIn, IsInt, IsNumber, IsOptional, Matches, Max, Min } from 'class-validator';

/**
 * The configuration every consumer group shares; read from the environment once, in main.ts, together with each
 * group's own (`env` in its definition, e.g. `notifier/notifier.env.ts`): see loadConsumersConfig.
 */
export class ConsumersEnv extends OutboundWebhooksEnv {
  /** The consumer groups this process runs, comma-separated, e.g. `ledger,notifier`; all by default. */
  @Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((group) => group.trim())
          .filter(Boolean)
      : value,
  )
  @ArrayNotEmpty()
  @IsIn(CONSUMER_GROUPS, { each: true, message: `must list groups among ${CONSUMER_GROUPS.join(', ')}` })
  CONSUMER_GROUPS: string[] = [...CONSUMER_GROUPS];

  /** Port of the consumers' `GET /metrics` (Prometheus text); 0 turns it off. A port in use: a warning, no metrics. */
  @Type(() => Number)
  @IsInt({ message: 'must be a port number (0 turns metrics off)' })
  @Min(0)
  @Max(65535)
  METRICS_PORT = 9465;

  /** Prefix of every topic and consumer group id this process uses, e.g. `staging.`. */
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_NAMESPACE = '';

  /**
   * `true` (development): create the topics this process needs when they do not exist. Otherwise a missing topic stops
   * the start with a line that names `npm run topics:create`, which runs with an administrator's credentials: the
   * consumers' principal needs no right to create topics.
   */
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'must be true or false' })
  KAFKA_CREATE_TOPICS = false;

  /** Partitions of a topic this process creates (KAFKA_CREATE_TOPICS=true); existing topics keep theirs. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  TOPIC_PARTITIONS = 6;

  /** Most events one database transaction applies. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  CONSUMER_BATCH_SIZE = 500;

  /**
   * Partitions one group works on at the same time, each strictly in order. The runs of the partitions a fetch brings
   * share one transaction, so the default covers every partition a group is likely to hold: a fetch costs one
   * transaction, not one per few partitions.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  CONSUMER_PARTITION_CONCURRENCY = 32;

  /**
   * Postgres connections of the consumer groups (the keyed groups' bookkeeping has a small pool of its own). Unset:
   * 2 + 3 per group; a group's shared transaction takes one, its retries queue for the rest. From 1 to 200.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE?: number;

  /**
   * Groups that apply records by key (`concurrency: 'key'` in their definition): records of one partition worked on
   * at the same time, each of a different key (a key's records stay in offset order).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000)
  CONSUMER_KEY_CONCURRENCY = 32;

  /** Groups that apply records by key: records one group works on at the same time in this process, all partitions. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  CONSUMER_MAX_IN_FLIGHT = 128;

  /**
   * A member silent this long is dropped from its group and its partitions reassigned (the broker's minimum is 6000). A
   * stopped process leaves its groups at once; a killed one cannot, so its partitions wait this long, and a replacement
   * started meanwhile waits with them before it joins.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  KAFKA_SESSION_TIMEOUT_MS = 10_000;

  /** How often a member heartbeats; the others learn of a rebalance at their next heartbeat. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  KAFKA_HEARTBEAT_INTERVAL_MS = 1_000;

  /** How long a rebalance waits for every member to rejoin before it goes on without the late ones. */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  KAFKA_REBALANCE_TIMEOUT_MS = 30_000;

  /**
   * A message whose dependency is down (a provider's 5xx, 429, timeout) is retried this long after its first failure,
   * then dead-lettered. A service may set its own (`retryCeilingMs` in its definition,
   * `apps/consumers/src/consumer-services.ts`). An agent task whose model is down is retried as long.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  CONSUMER_RETRY_CEILING_MS = 3_600_000;

  /**
   * `service`: each group keeps its key order as its service definition says (`keyOrder: 'park'` parks a key behind its
   * dead letter). `off`: no group of this process parks keys, nor unparks them; keys parked before stay parked until a
   * process with parking runs again or an operator purges them.
   */
  @IsIn(['service', 'off'], { message: 'must be "service" or "off"' })
  CONSUMER_KEY_PARKING: 'service' | 'off' = 'service';

  /**
   * A parked event sent for replay and still not applied after this long is sent again (the process that sent it may
   * have died before the send).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  CONSUMER_UNPARK_RESEND_MS = 60_000;

  /**
   * A group's offset commits go to the broker at most this often, all its partitions in one request; at rest a commit
   * goes at once. A crash redelivers what was applied and not yet committed, and the dedupe table skips it.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000)
  CONSUMER_COMMIT_INTERVAL_MS = 500;

  /**
   * Consecutive failures on one dependency, with no answer in between, that open the group's breaker for it (and the
   * agent's breaker for the model).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  CONSUMER_BREAKER_FAILURES = 3;

  /**
   * The first probe of an open breaker comes this long after it opened; each failed probe doubles the interval, up to
   * CONSUMER_BREAKER_PROBE_MAX_MS.
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  CONSUMER_BREAKER_PROBE_MS = 5_000;

  /** The longest interval between two probes of an open breaker. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  CONSUMER_BREAKER_PROBE_MAX_MS = 60_000;

  /**
   * Days a `processed_events` row (and its status row) is kept: the dedupe window, which must exceed the topics'
   * retention, or a very old redelivery would be applied again. Fractions are allowed (0.5 is twelve hours), down to
   * 0.0005 (43 seconds), for soak and rehearsal runs.
   */
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.0005)
  PROCESSED_EVENTS_RETENTION_DAYS = 14;

  /** How often this process tries the processed-events retention job (one process at a time runs it). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  PROCESSED_EVENTS_RETENTION_INTERVAL_MS = 3_600_000;

  /**
   * Days a sent notification, a finished agent task (`done`, `dead`) and an ended saga (with its history) are kept;
   * keep it at least the dedupe window.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  HISTORY_RETENTION_DAYS = 30;

  /** How often this process tries the history retention job (one process at a time runs it). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  HISTORY_RETENTION_INTERVAL_MS = 3_600_000;

  /**
   * Fault injection for the crash tests only: the process kills itself (SIGKILL) right after its Nth database
   * commit, before committing the Kafka offset. 0 (the default) never does.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS = 0;

  /**
   * Fault injection for the crash tests only: the notifier, payments or shipping kills itself (SIGKILL) right after
   * its Nth provider call returned, before the outcome is recorded (for the notifier: before `sent`). 0 (the default)
   * never does.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS = 0;
}
