import { IsISO8601, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_FULFILMENT_FAILED_V1 = 'shop.order.fulfilment-failed.v1';

/** The fulfilment saga was compensated: whatever it had done (reservation, charge) is undone. */
export class ShopOrderFulfilmentFailedV1 extends OrderFieldsV1 {
  @IsUUID()
  sagaId: string;

  /** Why the order could not be fulfilled, e.g. the step's failure reply. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  reason: string;

  @IsISO8601()
  failedAt: string;
}
