import { IsOptional, IsString, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_CANCELLED_V1 = 'shop.order.cancelled.v1';

/** The order was cancelled; a paid amount is to be refunded. */
export class ShopOrderCancelledV1 extends OrderFieldsV1 {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
