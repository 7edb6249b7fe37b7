import { BaseEnv } from '@app/config';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, Max, Min } from 'class-validator';

/** The relay's configuration; read from the environment once, in main.ts. */
export class RelayEnv extends BaseEnv {
  /**
   * Drain loops per relay process, each with its own connection, lanes and producer: one loop's database work
   * overlaps another's produce request. Every loop counts as one member when lanes are shared out. The loops share
   * one JavaScript thread: beyond about 15,000 events/s, run one relay process per core with `RELAY_LOOPS=1`.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(16)
  RELAY_LOOPS = 2;

  /** Rows claimed and published per transaction; keep this × your largest event well below the relay's heap limit. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  RELAY_BATCH_SIZE = 500;

  /** Poll fallback when no notification arrives; at most 1 s so that a lost NOTIFY delays nothing for long. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(1000)
  RELAY_POLL_INTERVAL_MS = 1000;

  /** How often a relay loop counts the relays and takes or gives back lanes. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  RELAY_REBALANCE_INTERVAL_MS = 1000;

  /** Largest produce request, in bytes; keep it below the broker's `message.max.bytes` (1 MiB by default). */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  RELAY_MAX_REQUEST_BYTES = 900_000;

  /**
   * Longest wait between retries while the broker or the database is unavailable; each wait is drawn between half
   * and all of its exponential ceiling (equal jitter).
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  RELAY_BACKOFF_MAX_MS = 10_000;

  /** Published rows older than this are deleted by the retention job; unpublished and parked rows stay. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  OUTBOX_RETENTION_SECONDS = 3600;

  /** How often each relay tries the outbox retention job (one relay at a time runs it). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  OUTBOX_RETENTION_INTERVAL_MS = 60_000;

  /** Rows deleted per statement, so that no retention statement holds many locks for long. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  OUTBOX_RETENTION_BATCH = 5000;

  /** Port of the relay's `GET /metrics`, `/healthz` and `/readyz` (served from the start); 0 turns it off. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65_535)
  METRICS_PORT = 9464;

  /** Address the relay's metrics server listens on. */
  @IsString()
  @IsNotEmpty()
  METRICS_HOST = '0.0.0.0';
}
