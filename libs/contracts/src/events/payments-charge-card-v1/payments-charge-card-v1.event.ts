import { IsInt, IsNotEmpty, IsString, Matches, MaxLength, Min } from 'class-validator';
import { SagaCommandFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_CHARGE_CARD_V1 = 'payments.charge-card.v1';

/**
 * Command to payments: charge the customer's card once for the order.
 *
 * @source /sagas/order-fulfilment
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "idempotencyKey": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77:charge-card:action",
 *   "orderId": "ord_4823c2af",
 *   "customerId": "cus_1f9a",
 *   "amount": 4200,
 *   "currency": "EUR"
 * }
 */
export class PaymentsChargeCardV1 extends SagaCommandFieldsV1 {
  /** The customer whose card is charged. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  customerId: string;

  /** What to charge, in minor units of `currency` (cents). */
  @IsInt()
  @Min(0)
  amount: number;

  /** ISO 4217 code, upper case, e.g. `EUR`. */
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;
}
