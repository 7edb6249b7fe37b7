import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const SHIPPING_SHIPMENT_CANCELLED_V1 = 'shipping.shipment-cancelled.v1';

/** Reply: the shipment, if any, is cancelled. */
export class ShippingShipmentCancelledV1 extends SagaReplyFieldsV1 {}
