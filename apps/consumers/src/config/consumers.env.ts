import { BaseEnv } from '@app/config';
import { CONSUMER_GROUPS } from '@app/contracts';
import { Transform, Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { isLoopbackUrl } from './loopback-url';

/** The consumer services' configuration; read from the environment once, in main.ts. */
export class ConsumersEnv extends BaseEnv {
  /** Which consumer groups this process runs, e.g. `ledger,notifier`; all by default. */
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

  /** Port of `GET /metrics` (Prometheus text); 0 turns it off. */
  @Type(() => Number)
  @IsInt({ message: 'must be a port number (0 turns metrics off)' })
  @Min(0)
  @Max(65535)
  METRICS_PORT = 9465;

  /** Prefix of every topic and consumer group id this process uses, e.g. `staging.`; empty by default. */
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_NAMESPACE = '';

  /** Partitions of a topic this process has to create because it does not exist yet. */
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

  /** Partitions one group works on at the same time; each partition stays strictly sequential. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  CONSUMER_PARTITION_CONCURRENCY = 3;

  /** A member silent this long is dropped from its group and its partitions reassigned (broker minimum 6000). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  KAFKA_SESSION_TIMEOUT_MS = 30_000;

  /** Days a `processed_events` row is kept: the dedupe window, which must exceed the topics' retention. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  PROCESSED_EVENTS_RETENTION_DAYS = 14;

  /** How often this process tries the processed-events retention job (one process at a time runs it). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  PROCESSED_EVENTS_RETENTION_INTERVAL_MS = 3_600_000;

  /** Days a sent notification or a finished agent task (`done`, `dead`) is kept; keep it at least the dedupe window. */
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
   * Currencies the ledger keeps books in (ISO codes, e.g. `EUR,USD`); an order event in any other currency breaks
   * that business rule and is dead-lettered at once. Empty (the default): every currency.
   */
  @Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((code) => code.trim())
          .filter(Boolean)
      : value,
  )
  @Matches(/^[A-Z]{3}$/, { each: true, message: 'must list ISO 4217 codes in upper case, e.g. EUR,USD' })
  LEDGER_CURRENCIES: string[] = [];

  /** The email provider's HTTP API (notifier). The default is `npm run dev:email-provider` on this machine. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  EMAIL_PROVIDER_URL = 'http://127.0.0.1:4010';

  /** Sent as `Authorization: Bearer …`. Required when the notifier runs against a provider on another host. */
  @ValidateIf(
    (env: ConsumersEnv) => env.CONSUMER_GROUPS?.includes('notifier') && !isLoopbackUrl(env.EMAIL_PROVIDER_URL),
  )
  @IsString()
  @IsNotEmpty()
  EMAIL_PROVIDER_API_KEY?: string;

  /** The sender address of order emails. */
  @IsNotEmpty()
  EMAIL_FROM = 'orders@hookrail.localhost';

  /** One provider call gives up after this long (and is retried with the same idempotency key). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  EMAIL_PROVIDER_TIMEOUT_MS = 10_000;

  /** OpenAI-compatible chat-completions API (agent), up to `/v1`. The default is `npm run dev:model`. */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  MODEL_BASE_URL = 'http://127.0.0.1:4011/v1';

  @IsNotEmpty()
  MODEL_NAME = 'hookrail-dev';

  /** Sent as `Authorization: Bearer …`. Required when the agent runs against a model on another host. */
  @ValidateIf((env: ConsumersEnv) => env.CONSUMER_GROUPS?.includes('agent') && !isLoopbackUrl(env.MODEL_BASE_URL))
  @IsString()
  @IsNotEmpty()
  MODEL_API_KEY?: string;

  /** One model call gives up after this long; the attempt counts as failed. */
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

  /** A claim is good for this long and renewed every third of it while the model call runs; then anyone may take it. */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  AGENT_LEASE_MS = 30_000;

  /** How often an idle agent worker looks for a task. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  AGENT_POLL_INTERVAL_MS = 500;

  /** Claims of one task before it is dead (and dead-lettered to `agent.dlt`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  AGENT_MAX_ATTEMPTS = 5;

  /** Backoff between failed agent attempts: full jitter up to base · 2^(n-1), capped at the max. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  AGENT_RETRY_BASE_MS = 2_000;

  @Type(() => Number)
  @IsInt()
  @Min(0)
  AGENT_RETRY_MAX_MS = 300_000;

  /**
   * Fault injection for the crash tests only: the process kills itself (SIGKILL) right after its Nth database
   * commit, before committing the Kafka offset. 0 (the default) never does.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS = 0;

  /**
   * Fault injection for the crash tests only: the notifier kills itself (SIGKILL) right after its Nth provider call
   * returned, before `sent` is recorded. 0 (the default) never does.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS = 0;
}
