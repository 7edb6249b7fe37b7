import { SagaCommandFieldsV1 } from '../common/saga-fields';

export const SHIPPING_CANCEL_SHIPMENT_V1 = 'shipping.cancel-shipment.v1';

/** Compensation: cancel the saga's shipment, if there is one. */
export class ShippingCancelShipmentV1 extends SagaCommandFieldsV1 {}
