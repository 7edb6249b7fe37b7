import { SagaCommandFieldsV1 } from '../common/saga-fields';

export const INVENTORY_RELEASE_STOCK_V1 = 'inventory.release-stock.v1';

/**
 * Compensation command to the inventory: give the saga's reservation back (nothing happens when there is none).
 *
 * @source /sagas/order-fulfilment
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "idempotencyKey": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77:reserve-stock:compensation",
 *   "orderId": "ord_4823c2af"
 * }
 */
export class InventoryReleaseStockV1 extends SagaCommandFieldsV1 {}
