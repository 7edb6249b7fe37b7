import { IsISO8601, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_FULFILMENT_FAILED_V1 = 'shop.order.fulfilment-failed.v1';

/**
 * The order fulfilment saga was compensated: whatever it had done (reservation, charge) is undone.
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
 *   "reason": "out of stock: book-0451 (2 wanted, 1 available)",
 *   "failedAt": "2025-06-01T12:00:02Z"
 * }
 */
export class ShopOrderFulfilmentFailedV1 extends OrderFieldsV1 {
  /** The fulfilment saga of the order. */
  @IsUUID()
  sagaId: string;

  /** Why the order could not be fulfilled: the failed step's reply, in words. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  reason: string;

  /** When the saga ended compensated (ISO 8601). */
  @IsISO8601()
  failedAt: string;
}
