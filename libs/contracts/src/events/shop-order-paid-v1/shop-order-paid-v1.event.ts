import { IsISO8601, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_PAID_V1 = 'shop.order.paid.v1';

/** The payment provider captured the order's amount. */
export class ShopOrderPaidV1 extends OrderFieldsV1 {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  paymentId: string;

  @IsISO8601()
  paidAt: string;
}
