import { BaseEnv, Secret } from '@app/config';
import { Transform, Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min, MinLength } from 'class-validator';

export const EVENT_STATUS_ACCESS_MODES = ['token', 'public'] as const;
export type EventStatusAccess = (typeof EVENT_STATUS_ACCESS_MODES)[number];

/**
 * The ingress's configuration; read from the environment once, in main.ts. It serves senders and producers only: the
 * operator plane (`/admin`, the console, the catalogue) is the admin app's.
 */
export class IngressEnv extends BaseEnv {
  /** HTTP port of the webhook and event API, the event status, `/healthz`, `/readyz` and `/metrics`. */
  @Type(() => Number)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Path of the JSON file that lists the webhook sources. */
  @IsString()
  @IsNotEmpty()
  HOOKRAIL_SOURCES: string;

  /** As the consumers were started with: the topics `POST /events` writes to. */
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_NAMESPACE = '';

  /**
   * Bearer tokens of internal CloudEvents producers (`POST /events`), comma-separated, each at least 16 characters;
   * with none, `POST /events` answers `401`.
   */
  @Secret()
  @Transform(({ value }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((token) => token.trim())
          .filter(Boolean)
      : value,
  )
  @IsArray()
  @MinLength(16, { each: true, message: 'each token must be at least 16 characters' })
  PRODUCER_TOKENS: string[] = [];

  /**
   * Who reads `GET /events/:id` and its stream: `token` (a producer, status or operator token, see docs/intake.md) or
   * `public` (anyone with the id, full view; logged as a warning at start).
   */
  @IsIn(EVENT_STATUS_ACCESS_MODES, { message: `must be one of ${EVENT_STATUS_ACCESS_MODES.join(', ')}` })
  EVENT_STATUS_ACCESS: EventStatusAccess = 'token';

  /** How often an open status stream checks its token again, in milliseconds; a revoked or expired one ends it. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  EVENT_STATUS_RECHECK_MS = 5_000;

  /**
   * Rejected deliveries kept per source, newest first, for the admin app's `/admin/sources`, the console's Sources
   * page and `hookrail sources`.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  REJECTIONS_KEPT_PER_SOURCE = 100;

  /** Largest accepted request body, in bytes (`413` above). */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  MAX_BODY_BYTES = 1024 * 1024;

  /** Postgres connections of this ingress instance. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 20;

  /**
   * Most deliveries written by one statement, in one transaction and one commit (group commit); 1 gives each delivery
   * its own.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  GROUP_COMMIT_MAX_ROWS = 100;

  /**
   * How long, in milliseconds, a delivery waits for others to share its commit; 0: only those that arrive in the same
   * turn of the event loop, or while the previous statements are still in flight.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(50)
  GROUP_COMMIT_WAIT_MS = 0;

  /** Group-commit statements in flight at once; deliveries that arrive meanwhile go together in the next one. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  GROUP_COMMIT_MAX_IN_FLIGHT = 4;

  /**
   * Deliveries waiting for their commit (queued or in a statement) at most; more are answered `503 overloaded` at once,
   * before their body is read.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  INGRESS_MAX_PENDING = 2_000;

  /**
   * A delivery not committed within this many milliseconds is answered `503 overloaded`; while the oldest waiting
   * one has waited half of it, new ones are shed at once. Below what senders wait (GitHub 10 s, Shopify 5 s).
   */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  INGRESS_COMMIT_TIMEOUT_MS = 2_000;

  /** Unpublished outbox rows at which deliveries get `429` with `Retry-After`; 0 turns backpressure off. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  BACKPRESSURE_MAX_BACKLOG = 100_000;

  /** How often the backlog is sampled, in milliseconds. */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(60_000)
  BACKPRESSURE_CHECK_MS = 1000;

  /**
   * Days an accepted delivery is kept: the sender dedupe window. Older events are deleted; a sender's retry after it is
   * accepted again as a new event, so keep it longer than any sender retries, and `GET /events/:id` answers `404`.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  INBOUND_EVENTS_RETENTION_DAYS = 30;

  /** How often this ingress tries the inbound-events retention job (one instance at a time runs it). */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  INBOUND_EVENTS_RETENTION_INTERVAL_MS = 3_600_000;
}
