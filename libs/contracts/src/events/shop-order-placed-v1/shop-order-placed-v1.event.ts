import { OrderFieldsV1 } from '../common/order-fields';

export const SHOP_ORDER_PLACED_V1 = 'shop.order.placed.v1';

/** A customer placed an order; nothing is paid yet. */
export class ShopOrderPlacedV1 extends OrderFieldsV1 {}
