import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { SagaCommandFieldsV1, StockLineV1 } from '../common/saga-fields';

export const SHIPPING_CREATE_SHIPMENT_V1 = 'shipping.create-shipment.v1';

/** Command: create one shipment for the order. */
export class ShippingCreateShipmentV1 extends SagaCommandFieldsV1 {
  /** Who receives it (the customer id). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  recipient: string;

  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StockLineV1)
  lines: StockLineV1[];
}
