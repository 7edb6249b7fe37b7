import { SagaFailureReplyFieldsV1 } from '../common/saga-fields';

export const PAYMENTS_CARD_CHARGE_FAILED_V1 = 'payments.card-charge-failed.v1';

/**
 * Reply of payments: nothing was charged (declined, or refunded before the charge).
 *
 * @source /participants/payments
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "commandId": "0e6f5d8c-1a2b-4c3d-8e9f-a0b1c2d3e4f5",
 *   "orderId": "ord_4823c2af",
 *   "reason": "card declined"
 * }
 */
export class PaymentsCardChargeFailedV1 extends SagaFailureReplyFieldsV1 {}
