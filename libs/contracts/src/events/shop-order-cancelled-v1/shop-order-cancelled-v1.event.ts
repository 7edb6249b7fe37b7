import { IsOptional, IsString, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_CANCELLED_V1 = 'shop.order.cancelled.v1';

/**
 * The order was cancelled; an amount already paid is to be refunded.
 *
 * @source /webhooks/shop
 * @example
 * {
 *   "orderId": "ord_4823c2af",
 *   "customer": { "id": "cus_1f9a", "email": "ada@example.com", "name": "Ada Lovelace" },
 *   "amount": 4200,
 *   "currency": "EUR",
 *   "lineItems": [{ "sku": "book-0451", "quantity": 2, "unitAmount": 2100 }],
 *   "reason": "The customer changed their mind."
 * }
 */
export class ShopOrderCancelledV1 extends OrderFieldsV1 {
  /** Why the order was cancelled, if the shop says. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
