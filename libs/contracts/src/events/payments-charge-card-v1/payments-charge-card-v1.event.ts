import { IsInt, IsNotEmpty, IsString, Matches, MaxLength, Min } from 'class-validator';
import { SagaCommandFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_CHARGE_CARD_V1 = 'payments.charge-card.v1';

/** Command: charge the customer's card once for the order. */
export class PaymentsChargeCardV1 extends SagaCommandFieldsV1 {
  /** The customer whose card is charged. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  customerId: string;

  /** Minor units (cents). */
  @IsInt()
  @Min(0)
  amount: number;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;
}
