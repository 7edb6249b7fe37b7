import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { SagaCommandFieldsV1, StockLineV1 } from '../common/saga-fields';

export const SHIPPING_CREATE_SHIPMENT_V1 = 'shipping.create-shipment.v1';

/**
 * Command to shipping: create one shipment for the order.
 *
 * @source /sagas/order-fulfilment
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "idempotencyKey": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77:create-shipment:action",
 *   "orderId": "ord_4823c2af",
 *   "recipient": "cus_1f9a",
 *   "lines": [{ "sku": "book-0451", "quantity": 2 }]
 * }
 */
export class ShippingCreateShipmentV1 extends SagaCommandFieldsV1 {
  /** Who receives it: the customer id. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  recipient: string;

  /** What to ship: at least one line. */
  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StockLineV1)
  lines: StockLineV1[];
}
