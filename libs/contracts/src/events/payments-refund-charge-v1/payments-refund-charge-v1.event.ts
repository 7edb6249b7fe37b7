import { IsInt, Matches, Min } from 'class-validator';
import { SagaCommandFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_REFUND_CHARGE_V1 = 'payments.refund-charge.v1';

/** Compensation: refund the saga's charge, if there is one. */
export class PaymentsRefundChargeV1 extends SagaCommandFieldsV1 {
  /** Minor units (cents). */
  @IsInt()
  @Min(0)
  amount: number;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;
}
