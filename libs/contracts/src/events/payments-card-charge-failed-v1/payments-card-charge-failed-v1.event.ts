import { SagaFailureReplyFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_CARD_CHARGE_FAILED_V1 = 'payments.card-charge-failed.v1';

/** Reply: nothing was charged (declined, or refunded before the charge). */
export class PaymentsCardChargeFailedV1 extends SagaFailureReplyFieldsV1 {}
