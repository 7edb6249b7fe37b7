import { SagaFailureReplyFieldsV1 } from '../common/saga-fields';

export const INVENTORY_STOCK_RESERVATION_FAILED_V1 = 'inventory.stock-reservation-failed.v1';

/**
 * Reply of the inventory: nothing was reserved (out of stock, or released before it was reserved).
 *
 * @source /participants/inventory
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "commandId": "0e6f5d8c-1a2b-4c3d-8e9f-a0b1c2d3e4f5",
 *   "orderId": "ord_4823c2af",
 *   "reason": "out of stock: book-0451 (2 wanted, 1 available)"
 * }
 */
export class InventoryStockReservationFailedV1 extends SagaFailureReplyFieldsV1 {}
