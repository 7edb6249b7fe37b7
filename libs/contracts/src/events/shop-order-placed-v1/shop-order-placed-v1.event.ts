import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_PLACED_V1 = 'shop.order.placed.v1';

/**
 * A customer placed an order at the shop; nothing is paid yet.
 *
 * @source /webhooks/shop
 * @example
 * {
 *   "orderId": "ord_4823c2af",
 *   "customer": { "id": "cus_1f9a", "email": "ada@example.com", "name": "Ada Lovelace" },
 *   "amount": 4200,
 *   "currency": "EUR",
 *   "lineItems": [{ "sku": "book-0451", "quantity": 2, "unitAmount": 2100 }],
 *   "note": "Please gift-wrap."
 * }
 */
export class ShopOrderPlacedV1 extends OrderFieldsV1 {}
