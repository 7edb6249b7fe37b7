import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/** The fulfilment saga coordinator's configuration (group `fulfilment`): its timeouts, retries and compensation. */
export class FulfilmentEnv {
  /** How long `reserve-stock` (inventory, a local transaction) may go unanswered before the saga sends it again. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  FULFILMENT_RESERVE_STOCK_TIMEOUT_MS = 20_000;

  /** How long `charge-card` (payments, the payment provider) may go unanswered before the saga sends it again. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  FULFILMENT_CHARGE_CARD_TIMEOUT_MS = 30_000;

  /** How long `create-shipment` (shipping, the carrier) may go unanswered before the saga sends it again. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  FULFILMENT_CREATE_SHIPMENT_TIMEOUT_MS = 60_000;

  /** How often an unanswered fulfilment action is sent again before the saga compensates it. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100)
  FULFILMENT_STEP_RETRIES = 2;

  /** Refusals of one compensation (a refund, a cancellation) before the saga is `failed`, for an operator. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  FULFILMENT_COMPENSATION_ATTEMPTS = 5;

  /** Upper bound of the first wait after a refused compensation; it doubles with each refusal (full jitter). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  FULFILMENT_COMPENSATION_BACKOFF_MS = 1_000;

  /** No wait after a refused compensation is longer than this. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  FULFILMENT_COMPENSATION_MAX_BACKOFF_MS = 60_000;

  /** An unanswered compensation is sent again at each timeout until this long after it first failed; then `failed`. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  FULFILMENT_COMPENSATION_CEILING_MS = 3_600_000;

  /**
   * How often the `saga-deadlines` job looks for unanswered commands, backoffs that ended and operators' requests (one
   * process at a time runs it).
   */
  @Type(() => Number)
  @IsInt()
  @Min(50)
  SAGA_DEADLINES_INTERVAL_MS = 1_000;

  /**
   * Fault injection for the crash tests only: the saga coordinator (group `fulfilment`) kills itself (SIGKILL) right
   * after the database commit of its Nth saga transition, before the Kafka offset commit. 0 (the default) never does.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  HOOKRAIL_FAULT_KILL_AFTER_SAGA_TRANSITIONS = 0;
}
