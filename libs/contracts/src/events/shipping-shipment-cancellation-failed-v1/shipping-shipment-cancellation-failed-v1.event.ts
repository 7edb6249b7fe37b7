import { SagaFailureReplyFieldsV1 } from '../common/saga-fields';

export const SHIPPING_SHIPMENT_CANCELLATION_FAILED_V1 = 'shipping.shipment-cancellation-failed.v1';

/** Reply: the carrier refused the cancellation; a human must look. */
export class ShippingShipmentCancellationFailedV1 extends SagaFailureReplyFieldsV1 {}
