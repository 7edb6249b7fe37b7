import { IsInt, Matches, Min } from 'class-validator';
import { SagaCommandFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_REFUND_CHARGE_V1 = 'payments.refund-charge.v1';

/**
 * Compensation command to payments: refund the saga's charge, if there is one.
 *
 * @source /sagas/order-fulfilment
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "idempotencyKey": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77:charge-card:compensation",
 *   "orderId": "ord_4823c2af",
 *   "amount": 4200,
 *   "currency": "EUR"
 * }
 */
export class PaymentsRefundChargeV1 extends SagaCommandFieldsV1 {
  /** What to refund, in minor units of `currency` (cents). */
  @IsInt()
  @Min(0)
  amount: number;

  /** ISO 4217 code, upper case, e.g. `EUR`. */
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;
}
