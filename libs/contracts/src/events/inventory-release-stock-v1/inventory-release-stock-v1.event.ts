import { SagaCommandFieldsV1 } from '../common/saga-fields';

export const INVENTORY_RELEASE_STOCK_V1 = 'inventory.release-stock.v1';

/** Compensation: give the saga's reservation back (nothing happens when there is none). */
export class InventoryReleaseStockV1 extends SagaCommandFieldsV1 {}
