import { SagaReplyFieldsV1 } from '../common/saga-fields';

export const INVENTORY_STOCK_RESERVED_V1 = 'inventory.stock-reserved.v1';

/**
 * Reply of the inventory: the lines are reserved.
 *
 * @source /participants/inventory
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "commandId": "0e6f5d8c-1a2b-4c3d-8e9f-a0b1c2d3e4f5",
 *   "orderId": "ord_4823c2af"
 * }
 */
export class InventoryStockReservedV1 extends SagaReplyFieldsV1 {}
