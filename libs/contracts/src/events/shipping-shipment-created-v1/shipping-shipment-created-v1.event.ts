import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const SHIPPING_SHIPMENT_CREATED_V1 = 'shipping.shipment-created.v1';

/**
 * Reply of shipping: the carrier created the shipment.
 *
 * @source /participants/shipping
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "commandId": "0e6f5d8c-1a2b-4c3d-8e9f-a0b1c2d3e4f5",
 *   "orderId": "ord_4823c2af",
 *   "shipmentId": "shp_9e02aa"
 * }
 */
export class ShippingShipmentCreatedV1 extends SagaReplyFieldsV1 {
  /** The carrier's shipment id. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  shipmentId: string;
}
