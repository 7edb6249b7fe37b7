import { SagaFailureReplyFieldsV1 } from '../common/saga-fields';

export const SHIPPING_SHIPMENT_CREATION_FAILED_V1 = 'shipping.shipment-creation-failed.v1';

/**
 * Reply of shipping: the carrier refused the shipment; nothing ships.
 *
 * @source /participants/shipping
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "commandId": "0e6f5d8c-1a2b-4c3d-8e9f-a0b1c2d3e4f5",
 *   "orderId": "ord_4823c2af",
 *   "reason": "address not served"
 * }
 */
export class ShippingShipmentCreationFailedV1 extends SagaFailureReplyFieldsV1 {}
