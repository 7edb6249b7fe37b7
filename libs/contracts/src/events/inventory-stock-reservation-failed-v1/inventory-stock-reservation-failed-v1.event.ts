import { SagaFailureReplyFieldsV1 } from '../common/saga-fields';

export const INVENTORY_STOCK_RESERVATION_FAILED_V1 = 'inventory.stock-reservation-failed.v1';

/** Reply: nothing was reserved (out of stock, or released before it was reserved). */
export class InventoryStockReservationFailedV1 extends SagaFailureReplyFieldsV1 {}
