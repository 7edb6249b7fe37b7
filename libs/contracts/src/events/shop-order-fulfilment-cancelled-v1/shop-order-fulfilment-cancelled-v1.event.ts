import { IsISO8601, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_FULFILMENT_CANCELLED_V1 = 'shop.order.fulfilment-cancelled.v1';

/**
 * The fulfilment saga was cancelled while it ran (the shop cancelled the order, or an operator did): whatever it had
 * done (reservation, charge, shipment) is undone.
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
 *   "reason": "the shop cancelled the order (shop.order.cancelled.v1)",
 *   "cancelledAt": "2025-06-01T12:00:03Z"
 * }
 */
export class ShopOrderFulfilmentCancelledV1 extends OrderFieldsV1 {
  @IsUUID()
  sagaId: string;

  /** Who or what cancelled it, and why. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  reason: string;

  @IsISO8601()
  cancelledAt: string;
}
