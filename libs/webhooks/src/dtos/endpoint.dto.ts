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
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { EVENT_TYPE_FILTER } from '../event-type-filter';

/** `eventTypes`: 1 to 50 types (shop.order.placed.v1), prefixes ending in .* (shop.order.*) or *. */
function EventTypes(): PropertyDecorator {
  const rules = [
    IsArray(),
    ArrayNotEmpty({ message: 'eventTypes must list at least one type, prefix (shop.order.*) or *' }),
    ArrayMaxSize(50),
    IsString({ each: true }),
    MaxLength(200, { each: true }),
    Matches(EVENT_TYPE_FILTER, {
      each: true,
      message: 'each event type must be a type (shop.order.placed.v1), a prefix ending in .* (shop.order.*) or *',
    }),
  ];
  return (target, property) => rules.forEach((rule) => rule(target, property));
}

/** POST /customer/v1/endpoints: what a customer gives for an endpoint of its own. */
export class CustomerEndpointDto {
  /** https (http only when configured); checked by the SSRF guard. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @EventTypes()
  eventTypes: string[];

  /** `[{path: '/region', equals: 'eu'}]`: every condition must hold of the event's data. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  payloadFilters?: unknown[];
}

/** PATCH /customer/v1/endpoints/:id: the fields given change; `description` and `payloadFilters` may be null. */
export class UpdateEndpointDto {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @IsOptional()
  @EventTypes()
  eventTypes?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  payloadFilters?: unknown[] | null;
}

/** POST /admin/webhook-endpoints, `hookrail endpoints add`. */
export class CreateWebhookEndpointDto extends CustomerEndpointDto {
  /** The customer whose events it receives (its id); without one, the operator's endpoint, which receives all. */
  @IsOptional()
  @IsUUID('all', { message: 'customerId must be a customer id (a UUID)' })
  customerId?: string;

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
