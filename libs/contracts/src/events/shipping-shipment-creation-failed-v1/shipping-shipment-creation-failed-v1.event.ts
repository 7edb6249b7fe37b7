import { SagaFailureReplyFieldsV1 } from '../common/saga-fields';

export const SHIPPING_SHIPMENT_CREATION_FAILED_V1 = 'shipping.shipment-creation-failed.v1';

/** Reply: the carrier refused the shipment; nothing ships. */
export class ShippingShipmentCreationFailedV1 extends SagaFailureReplyFieldsV1 {}
