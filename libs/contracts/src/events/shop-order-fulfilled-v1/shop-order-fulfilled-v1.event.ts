import { IsISO8601, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_FULFILLED_V1 = 'shop.order.fulfilled.v1';

/**
 * The order fulfilment saga completed: stock reserved, card charged, shipment created.
 *
 * @source /sagas/order-fulfilment
 * @example
 * {
 *   "orderId": "ord_4823c2af",
 *   "customer": { "id": "cus_1f9a", "email": "ada@example.com", "name": "Ada Lovelace" },
 *   "amount": 4200,
 *   "currency": "EUR",
 *   "lineItems": [{ "sku": "book-0451", "quantity": 2, "unitAmount": 2100 }],
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "fulfilledAt": "2025-06-01T12:00:04Z",
 *   "chargeId": "ch_3c41d2",
 *   "shipmentId": "shp_9e02aa"
 * }
 */
export class ShopOrderFulfilledV1 extends OrderFieldsV1 {
  /** The fulfilment saga of the order. */
  @IsUUID()
  sagaId: string;

  /** When the saga completed (ISO 8601). */
  @IsISO8601()
  fulfilledAt: string;

  /** The payment provider's charge id. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  chargeId?: string;

  /** The carrier's shipment id. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  shipmentId?: string;
}
