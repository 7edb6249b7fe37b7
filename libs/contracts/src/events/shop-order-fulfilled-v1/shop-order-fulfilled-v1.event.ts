import { IsISO8601, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_FULFILLED_V1 = 'shop.order.fulfilled.v1';

/** The fulfilment saga completed: stock reserved, card charged, shipment created. */
export class ShopOrderFulfilledV1 extends OrderFieldsV1 {
  @IsUUID()
  sagaId: string;

  @IsISO8601()
  fulfilledAt: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  chargeId?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  shipmentId?: string;
}
