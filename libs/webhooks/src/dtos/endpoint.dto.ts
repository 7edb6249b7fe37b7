import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { EVENT_TYPE_FILTER } from '../event-type-filter';

/** POST /admin/webhook-endpoints, `hookrail endpoints add`. */
export class CreateWebhookEndpointDto {
  /** https (http only when configured); checked by the SSRF guard. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @IsArray()
  @ArrayNotEmpty({ message: 'eventTypes must list at least one type, prefix (shop.order.*) or *' })
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  @Matches(EVENT_TYPE_FILTER, {
    each: true,
    message: 'each event type must be a type (shop.order.placed.v1), a prefix ending in .* (shop.order.*) or *',
  })
  eventTypes: string[];

  /** Deliveries of one aggregate go one at a time, in order. */
  @IsOptional()
  @IsBoolean()
  ordered?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  rateLimitPerSecond?: number;

  /** Deliveries in flight to this endpoint at once (default: OUTBOUND_WEBHOOKS_ENDPOINT_CONCURRENCY). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000)
  maxInFlight?: number;
}

/** POST /admin/webhook-endpoints/:id/disable */
export class DisableWebhookEndpointDto {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

/** POST /admin/webhook-endpoints/:id/rotate-secret */
export class RotateWebhookSecretDto {
  /** How long the current secrets keep signing beside the new one; 0 removes them at once. Default one day. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(30 * 86_400)
  overlapSeconds = 86_400;
}
