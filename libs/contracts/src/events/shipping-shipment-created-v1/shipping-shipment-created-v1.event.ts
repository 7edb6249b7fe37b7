import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const SHIPPING_SHIPMENT_CREATED_V1 = 'shipping.shipment-created.v1';

/** Reply: the carrier created the shipment. */
export class ShippingShipmentCreatedV1 extends SagaReplyFieldsV1 {
  /** The carrier's shipment id. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  shipmentId: string;
}
