import { IsInt, Matches, Min } from 'class-validator';
import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_CHARGE_REFUNDED_V1 = 'payments.charge-refunded.v1';

/** Reply: the charge is refunded (`amount` 0: there was nothing to refund). */
export class PaymentsChargeRefundedV1 extends SagaReplyFieldsV1 {
  /** Minor units (cents). */
  @IsInt()
  @Min(0)
  amount: number;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;
}
