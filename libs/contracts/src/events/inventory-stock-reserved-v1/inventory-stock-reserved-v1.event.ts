import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const INVENTORY_STOCK_RESERVED_V1 = 'inventory.stock-reserved.v1';

/** Reply: the lines are reserved. */
export class InventoryStockReservedV1 extends SagaReplyFieldsV1 {}
