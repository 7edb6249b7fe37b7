import { SagaFailureReplyFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_CHARGE_REFUND_FAILED_V1 = 'payments.charge-refund-failed.v1';

/** Reply: the provider refused the refund; a human must look. */
export class PaymentsChargeRefundFailedV1 extends SagaFailureReplyFieldsV1 {}
