import { IsInt, Matches, Min } from 'class-validator';
import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_CHARGE_REFUNDED_V1 = 'payments.charge-refunded.v1';

/**
 * Reply of payments: the charge is refunded (`amount` 0: there was nothing to refund).
 *
 * @source /participants/payments
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "commandId": "0e6f5d8c-1a2b-4c3d-8e9f-a0b1c2d3e4f5",
 *   "orderId": "ord_4823c2af",
 *   "amount": 4200,
 *   "currency": "EUR"
 * }
 */
export class PaymentsChargeRefundedV1 extends SagaReplyFieldsV1 {
  /** What was refunded, in minor units of `currency` (cents); 0 when nothing was charged. */
  @IsInt()
  @Min(0)
  amount: number;

  /** ISO 4217 code, upper case, e.g. `EUR`. */
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;
}
