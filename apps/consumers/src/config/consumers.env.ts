import { CONSUMER_GROUPS } from '@app/contracts';
import { Transform, Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsIn,
  IsInt,
  IsNumber,
  IsNotEmpty,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { WebhookDeliveryEnv } from '../webhooks/config/webhook-delivery.env';
import { isLoopbackUrl } from './loopback-url';

/**
 * The consumer services' configuration; read from the environment once, in main.ts. The outbound webhooks'
 * variables come from WebhookDeliveryEnv (apps/consumers/src/webhooks/config).
 */
export class ConsumersEnv extends WebhookDeliveryEnv {
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

  /** Partitions of a topic this process creates because it does not exist yet; existing topics keep theirs. */
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
   * Partitions one group works on at the same time, each strictly in order, unless the group's definition sets its own
   * (`partitionConcurrency`: inventory 1). The process's database pool has 2 + groups × this connections.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  CONSUMER_PARTITION_CONCURRENCY = 3;

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
   * The currencies the ledger keeps accounts in, e.g. `EUR,USD`; an order in another one is rejected (a permanent
   * error, `NoLedgerAccountError`: dead-lettered, and its order's later events parked behind it); add the currency,
   * restart, replay. Empty: every currency.
   */
  @Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((currency) => currency.trim().toUpperCase())
          .filter(Boolean)
      : value,
  )
  @Matches(/^[A-Z]{3}$/, { each: true, message: 'must list ISO 4217 codes such as EUR,USD' })
  LEDGER_CURRENCIES: string[] = [];

  /** The notifier's email provider, its HTTP API. The default is `npm run dev:email-provider` on this machine. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  EMAIL_PROVIDER_URL = 'http://127.0.0.1:4010';

  /**
   * The notifier's key at its email provider, sent as `Authorization: Bearer …`. Required when the notifier runs
   * against a provider that is not on the loopback address.
   */
  @ValidateIf(
    (env: ConsumersEnv) => env.CONSUMER_GROUPS?.includes('notifier') && !isLoopbackUrl(env.EMAIL_PROVIDER_URL),
  )
  @IsString()
  @IsNotEmpty()
  EMAIL_PROVIDER_API_KEY?: string;

  /** The sender address of the notifier's order emails. */
  @IsNotEmpty()
  EMAIL_FROM = 'orders@hookrail.localhost';

  /** One email provider call gives up after this long (and is retried with the same idempotency key). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  EMAIL_PROVIDER_TIMEOUT_MS = 10_000;

  /** The agent's model: an OpenAI-compatible chat-completions API, up to `/v1`. The default is `npm run dev:model`. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  MODEL_BASE_URL = 'http://127.0.0.1:4011/v1';

  /** The model the agent asks for. */
  @IsNotEmpty()
  MODEL_NAME = 'hookrail-dev';

  /**
   * The agent's key at its model, sent as `Authorization: Bearer …`. Required when the agent runs against a model that
   * is not on the loopback address.
   */
  @ValidateIf((env: ConsumersEnv) => env.CONSUMER_GROUPS?.includes('agent') && !isLoopbackUrl(env.MODEL_BASE_URL))
  @IsString()
  @IsNotEmpty()
  MODEL_API_KEY?: string;

  /** One model call of the agent gives up after this long; the attempt counts as failed. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  MODEL_TIMEOUT_MS = 120_000;

  /** Agent tasks this process works on at the same time. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(256)
  AGENT_WORKERS = 4;

  /**
   * An agent task's claim is good for this long and renewed every third of it while the model call runs; then any
   * worker may take the task.
   */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  AGENT_LEASE_MS = 30_000;

  /** How often an idle agent worker looks for a task. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  AGENT_POLL_INTERVAL_MS = 500;

  /**
   * Claims of one task before it is dead (and dead-lettered to `agent.dlt`); attempts that found the model down do not
   * count (CONSUMER_RETRY_CEILING_MS bounds those).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  AGENT_MAX_ATTEMPTS = 5;

  /**
   * Backoff after failed agent attempt n: a random wait up to this · 2^(n−1) (full jitter), at most
   * AGENT_RETRY_MAX_MS.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  AGENT_RETRY_BASE_MS = 2_000;

  /** The longest backoff between two attempts of an agent task. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  AGENT_RETRY_MAX_MS = 300_000;

  /** The payment provider's HTTP API (group `payments`); the default is `npm run dev:payment-provider`. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  PAYMENT_PROVIDER_URL = 'http://127.0.0.1:4012';

  /**
   * The key of group `payments` at its provider, sent as `Authorization: Bearer …`. Required when `payments` runs
   * against a provider that is not on the loopback address.
   */
  @ValidateIf(
    (env: ConsumersEnv) => env.CONSUMER_GROUPS?.includes('payments') && !isLoopbackUrl(env.PAYMENT_PROVIDER_URL),
  )
  @IsString()
  @IsNotEmpty()
  PAYMENT_PROVIDER_API_KEY?: string;

  /** One payment provider call gives up after this long (and is retried with the same idempotency key). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  PAYMENT_PROVIDER_TIMEOUT_MS = 10_000;

  /** The carrier's HTTP API (group `shipping`); the default is `npm run dev:shipping-provider`. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  SHIPPING_PROVIDER_URL = 'http://127.0.0.1:4013';

  /**
   * The key of group `shipping` at its carrier, sent as `Authorization: Bearer …`. Required when `shipping` runs
   * against a carrier that is not on the loopback address.
   */
  @ValidateIf(
    (env: ConsumersEnv) => env.CONSUMER_GROUPS?.includes('shipping') && !isLoopbackUrl(env.SHIPPING_PROVIDER_URL),
  )
  @IsString()
  @IsNotEmpty()
  SHIPPING_PROVIDER_API_KEY?: string;

  /** One carrier call gives up after this long (and is retried with the same idempotency key). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  SHIPPING_PROVIDER_TIMEOUT_MS = 10_000;

  /**
   * Units a SKU without a `stock` row starts with at its first reservation; 0: an unknown SKU is out of stock.
   * `npm start` sets 1000.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  INVENTORY_INITIAL_STOCK = 0;

  /** How long `reserve-stock` (inventory, a local transaction) may go unanswered before the saga sends it again. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  FULFILMENT_RESERVE_STOCK_TIMEOUT_MS = 20_000;

  /** How long `charge-card` (payments, the payment provider) may go unanswered before the saga sends it again. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  FULFILMENT_CHARGE_CARD_TIMEOUT_MS = 30_000;

  /** How long `create-shipment` (shipping, the carrier) may go unanswered before the saga sends it again. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  FULFILMENT_CREATE_SHIPMENT_TIMEOUT_MS = 60_000;

  /** How often an unanswered fulfilment action is sent again before the saga compensates it. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100)
  FULFILMENT_STEP_RETRIES = 2;

  /** Refusals of one compensation (a refund, a cancellation) before the saga is `failed`, for an operator. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  FULFILMENT_COMPENSATION_ATTEMPTS = 5;

  /** Upper bound of the first wait after a refused compensation; it doubles with each refusal (full jitter). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  FULFILMENT_COMPENSATION_BACKOFF_MS = 1_000;

  /** No wait after a refused compensation is longer than this. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  FULFILMENT_COMPENSATION_MAX_BACKOFF_MS = 60_000;

  /** An unanswered compensation is sent again at each timeout until this long after it first failed; then `failed`. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  FULFILMENT_COMPENSATION_CEILING_MS = 3_600_000;

  /**
   * How often the `saga-deadlines` job looks for unanswered commands, backoffs that ended and operators' requests (one
   * process at a time runs it).
   */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  SAGA_DEADLINES_INTERVAL_MS = 1_000;

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

  /**
   * Fault injection for the crash tests only: the saga coordinator (group `fulfilment`) kills itself (SIGKILL) right
   * after the database commit of its Nth saga transition, before the Kafka offset commit. 0 (the default) never does.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  HOOKRAIL_FAULT_KILL_AFTER_SAGA_TRANSITIONS = 0;
}
