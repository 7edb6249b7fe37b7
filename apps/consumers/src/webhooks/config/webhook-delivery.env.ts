import { TOPICS } from '@app/contracts';
import { Transform, Type } from 'class-transformer';
import { ArrayNotEmpty, IsInt, IsNumber, Matches, Max, Min, ValidateBy } from 'class-validator';
import { parseDuration, RetrySchedule } from '../delivery/retry-schedule';

function IsDuration(what: (value: string) => boolean, message: string) {
  return ValidateBy({
    name: 'isDuration',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && what(value),
      defaultMessage: () => message,
    },
  });
}

const validSchedule = (value: string) => {
  try {
    RetrySchedule.parse(value, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The delivery side of outbound webhooks (group `webhooks`, its workers), the group's own configuration; the SSRF
 * rules come from OutboundWebhooksEnv, which every consumers process reads.
 */
export class WebhookDeliveryEnv {
  /** Topics whose events may go out as webhooks (before KAFKA_NAMESPACE), comma-separated. */
  @Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((topic) => topic.trim())
          .filter(Boolean)
      : value,
  )
  @ArrayNotEmpty()
  @Matches(/^[A-Za-z0-9._-]+$/, { each: true, message: 'must be a comma-separated list of topic names' })
  OUTBOUND_WEBHOOKS_TOPICS: string[] = [TOPICS.shopOrders, TOPICS.inbound];

  /**
   * Deliveries this process sends at the same time, over all endpoints; an endpoint holds at most workers / (busy
   * endpoints + 1) of them, so one slow receiver cannot take them all. A worker is a request in flight, not a thread:
   * 256 lets 31 endpoints at the default cap be slow at once before any endpoint is held to its share. 0 runs no
   * delivery workers here.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(4096)
  OUTBOUND_WEBHOOKS_WORKERS = 256;

  /** Deliveries in flight to one endpoint at once (an endpoint's `maxInFlight` overrides it). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  OUTBOUND_WEBHOOKS_ENDPOINT_CONCURRENCY = 8;

  /** The wait before each attempt, comma-separated; its length is the number of attempts. */
  @IsDuration(validSchedule, 'must be comma-separated durations such as 0,5s,5m,30m,2h,5h,10h,10h')
  OUTBOUND_WEBHOOKS_RETRY_SCHEDULE = RetrySchedule.DEFAULT;

  /** Each wait moves by up to this fraction, either way. */
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  @Max(1)
  OUTBOUND_WEBHOOKS_RETRY_JITTER = 0.2;

  /** An attempt fails when the TCP connection (and TLS) is not up within this. */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  OUTBOUND_WEBHOOKS_CONNECT_TIMEOUT_MS = 5_000;

  /** An attempt fails when the whole answer has not come within this. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  OUTBOUND_WEBHOOKS_TIMEOUT_MS = 15_000;

  /**
   * A claimed delivery is another worker's after this, or within about a second once its process's database session
   * is gone (a process killed); at least OUTBOUND_WEBHOOKS_TIMEOUT_MS + 1000.
   */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @ValidateBy({
    name: 'exceedsTimeout',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'number' && value >= (args?.object as WebhookDeliveryEnv).OUTBOUND_WEBHOOKS_TIMEOUT_MS + 1_000,
      defaultMessage: () => 'must be at least OUTBOUND_WEBHOOKS_TIMEOUT_MS + 1000',
    },
  })
  OUTBOUND_WEBHOOKS_LEASE_MS = 30_000;

  /** Response bytes read at most (the first 2 KB are kept in the delivery log). */
  @Type(() => Number)
  @IsInt()
  @Min(2048)
  OUTBOUND_WEBHOOKS_MAX_RESPONSE_BYTES = 65_536;

  /** An endpoint whose every attempt failed for this long is disabled; its deliveries wait. */
  @IsDuration((value) => (parseDuration(value) ?? 0) > 0, 'must be a duration such as 5d, 12h or 30m')
  OUTBOUND_WEBHOOKS_DISABLE_AFTER = '5d';

  /** How often idle workers look for due retries (new deliveries wake them at once). */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  OUTBOUND_WEBHOOKS_POLL_INTERVAL_MS = 250;

  /**
   * Days a delivered or failed delivery (and its attempts) is kept, and a delivery waiting for a disabled endpoint at
   * most.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  OUTBOUND_WEBHOOKS_RETENTION_DAYS = 30;

  /** How often this process tries the `webhook-deliveries-retention` job (one process at a time runs it). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  OUTBOUND_WEBHOOKS_RETENTION_INTERVAL_MS = 3_600_000;
}
