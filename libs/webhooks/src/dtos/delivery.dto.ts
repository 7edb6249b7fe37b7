import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DELIVERY_STATES, DeliveryState } from '../webhook-states';

/** GET /admin/webhook-endpoints/:id/deliveries (query string), `hookrail deliveries list`. */
export class ListDeliveriesQuery {
  @IsOptional()
  @IsIn(DELIVERY_STATES, { message: `status must be one of ${DELIVERY_STATES.join(', ')}` })
  status?: DeliveryState;

  @IsOptional()
  @IsString()
  @MaxLength(300)
  eventType?: string;

  /** An ISO time or a duration back from now (`30m`, `6h`, `2d`): deliveries created at or after it. */
  @IsOptional()
  @IsString()
  since?: string;

  @IsOptional()
  @IsString()
  until?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000)
  limit = 50;
}

/** POST /admin/webhook-endpoints/:id/replay: every failed delivery created in [since, until). */
export class ReplayFailedDeliveriesDto {
  @IsString()
  @IsNotEmpty({ message: 'since is required (an ISO time or a duration back from now: 30m, 6h, 2d)' })
  since: string;

  @IsOptional()
  @IsString()
  until?: string;

  /** List what would be sent again and change nothing. */
  @IsOptional()
  @IsBoolean()
  dryRun = false;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  limit = 10_000;
}
