import { SagaCommandFieldsV1 } from '../common/saga-fields';

export const SHIPPING_CANCEL_SHIPMENT_V1 = 'shipping.cancel-shipment.v1';

/**
 * Compensation command to shipping: cancel the saga's shipment, if there is one.
 *
 * @source /sagas/order-fulfilment
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "idempotencyKey": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77:create-shipment:compensation",
 *   "orderId": "ord_4823c2af"
 * }
 */
export class ShippingCancelShipmentV1 extends SagaCommandFieldsV1 {}
