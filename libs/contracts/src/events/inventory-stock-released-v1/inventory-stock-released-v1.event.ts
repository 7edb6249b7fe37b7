import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const INVENTORY_STOCK_RELEASED_V1 = 'inventory.stock-released.v1';

/** Reply: the reservation, if any, is released. */
export class InventoryStockReleasedV1 extends SagaReplyFieldsV1 {}
