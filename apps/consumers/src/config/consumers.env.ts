import { BaseEnv } from '@app/config';
import { CONSUMER_GROUPS } from '@app/contracts';
import { Transform, Type } from 'class-transformer';
import { ArrayNotEmpty, IsIn, IsInt, Matches, Max, Min } from 'class-validator';

/** The consumer services' configuration; read from the environment once, in main.ts. */
export class ConsumersEnv extends BaseEnv {
  /** Which consumer groups this process runs, e.g. `ledger,notifier`; all by default. */
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').map((group) => group.trim()).filter(Boolean) : value))
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

  /**
   * Fault injection for the crash tests only: the process kills itself (SIGKILL) right after its Nth database
   * commit, before committing the Kafka offset. 0 (the default) never does.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS = 0;
}
