import { IsISO8601, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_PAID_V1 = 'shop.order.paid.v1';

/**
 * The payment provider captured the order's amount.
 *
 * @source /webhooks/shop
 * @example
 * {
 *   "orderId": "ord_4823c2af",
 *   "customer": { "id": "cus_1f9a", "email": "ada@example.com", "name": "Ada Lovelace" },
 *   "amount": 4200,
 *   "currency": "EUR",
 *   "lineItems": [{ "sku": "book-0451", "quantity": 2, "unitAmount": 2100 }],
 *   "paymentId": "pay_77c1e0",
 *   "paidAt": "2025-06-01T12:03:10Z"
 * }
 */
export class ShopOrderPaidV1 extends OrderFieldsV1 {
  /** The payment provider's id of the payment. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  paymentId: string;

  /** When the payment was captured (ISO 8601). */
  @IsISO8601()
  paidAt: string;
}
