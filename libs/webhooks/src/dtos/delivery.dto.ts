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

export const REPLAYABLE_STATES = ['delivered', 'failed'] as const;

/** POST /admin/webhook-endpoints/:id/replay: every delivery created in [since, until) (or only those in `status`). */
export class ReplayDeliveriesDto {
  @IsString()
  @IsNotEmpty({ message: 'since is required (an ISO time or a duration back from now: 30m, 6h, 2d)' })
  since: string;

  @IsOptional()
  @IsString()
  until?: string;

  /** Only the deliveries that ended so: `delivered` or `failed`. */
  @IsOptional()
  @IsIn(REPLAYABLE_STATES, { message: `status must be one of ${REPLAYABLE_STATES.join(', ')}` })
  status?: (typeof REPLAYABLE_STATES)[number];

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
