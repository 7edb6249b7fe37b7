import { IsInt, IsNotEmpty, IsString, Matches, MaxLength, Min } from 'class-validator';
import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_CARD_CHARGED_V1 = 'payments.card-charged.v1';

/** Reply: the provider charged the card. */
export class PaymentsCardChargedV1 extends SagaReplyFieldsV1 {
  /** The provider's charge id. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  chargeId: string;

  /** Minor units (cents). */
  @IsInt()
  @Min(0)
  amount: number;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as EUR' })
  currency: string;
}
