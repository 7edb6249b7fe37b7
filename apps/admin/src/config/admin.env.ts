import { Secret } from '@app/config';
import { OutboundWebhooksEnv } from '@app/webhooks';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';

/**
 * The operator plane's configuration (`apps/admin`): `/admin`, the console, the catalogue and its own `/metrics`, on a
 * listener of their own. The SSRF rules for outbound webhook URLs (checked when an endpoint is saved) come from
 * OutboundWebhooksEnv.
 */
export class AdminEnv extends OutboundWebhooksEnv {
  /** HTTP port of `/admin`, the console, `/catalog` and the operator plane's `/metrics`. */
  @Type(() => Number)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  ADMIN_PORT = 3100;

  /**
   * Address the operator plane listens on: loopback by default, so that it is reached through a tunnel, a VPN or a
   * private network, never from where senders reach the ingress. `0.0.0.0` in a container, published on loopback.
   */
  @IsString()
  @IsNotEmpty()
  ADMIN_HOST = '127.0.0.1';

  /**
   * The bootstrap administrator's bearer token, at least 16 characters. Named tokens with narrower roles are made
   * with `hookrail tokens create`.
   */
  @Secret()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  ADMIN_TOKEN: string;

  /**
   * Path of the ingress's sources file: `/admin/sources` lists each source's name, scheme and topic (its secrets are
   * not read). Without it, only the rejections kept of each source are listed.
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  HOOKRAIL_SOURCES?: string;

  /**
   * As the consumers were started with: the topic and group names the served catalogue gives, and the groups whose
   * lag `/admin` shows by default (a dead letter keeps its own replay topic).
   */
  @Matches(/^[A-Za-z0-9._-]*$/, { message: 'may hold only letters, digits, ".", "_" and "-"' })
  KAFKA_NAMESPACE = '';

  /**
   * Directory of the event catalogue served under `/catalog` (what `npm run contracts:export` writes); without one,
   * `/catalog` answers `404`.
   */
  @IsString()
  @IsNotEmpty()
  CATALOG_DIR = 'contracts';

  /** Rejected deliveries the ingress keeps per source (as the ingress was started with), shown beside each source. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  REJECTIONS_KEPT_PER_SOURCE = 100;

  /** Postgres connections of the operator plane. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  DATABASE_POOL_SIZE = 5;

  /**
   * How often the console's charts are sampled into `ops_samples` (one instance at a time), in milliseconds: 1000 to
   * 3600000, or 0 to turn sampling off on this instance.
   */
  @Type(() => Number)
  @IsInt()
  @ValidateIf((env: AdminEnv) => env.OPS_SAMPLE_INTERVAL_MS !== 0)
  @Min(1000, { message: 'must be at least 1000 (or 0 to turn sampling off)' })
  @Max(3_600_000)
  OPS_SAMPLE_INTERVAL_MS = 10_000;

  /** How long chart samples are kept, in minutes (the console shows up to this much). */
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(10_080)
  OPS_SAMPLE_RETENTION_MINUTES = 180;

  /** HTTP port of the customer API (`/customer/v1`), a listener of its own beside `/admin`. */
  @Type(() => Number)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  PORTAL_PORT = 3200;

  /** Address the customer API listens on: loopback by default; `0.0.0.0` to face customers. */
  @IsString()
  @IsNotEmpty()
  PORTAL_HOST = '127.0.0.1';

  /** Where customers reach the portal: portal links are `<PORTAL_PUBLIC_URL>/portal#link=<token>`. */
  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
    { message: 'must be an http(s) URL' },
  )
  PORTAL_PUBLIC_URL = 'http://127.0.0.1:3200';

  /** Requests per minute each customer token may make to the customer API; past it, `429` with Retry-After. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  PORTAL_RATE_PER_MINUTE = 600;
}
