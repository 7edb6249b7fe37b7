import { IsISO8601, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_FULFILMENT_CANCELLED_V1 = 'shop.order.fulfilment-cancelled.v1';

/**
 * The fulfilment saga was cancelled while it ran (the shop cancelled the order, or an operator did): whatever it had
 * done (reservation, charge, shipment) is undone.
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
