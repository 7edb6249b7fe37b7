import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsObject, ValidateNested } from 'class-validator';
import { SagaCommandFieldsV1, StockLineV1 } from '../common/saga-fields';

export const INVENTORY_RESERVE_STOCK_V1 = 'inventory.reserve-stock.v1';

/**
 * Command to the inventory: reserve these lines for the saga, all or none. Idempotent per saga.
 *
 * @source /sagas/order-fulfilment
 * @example
 * {
 *   "sagaId": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77",
 *   "idempotencyKey": "5b0c9a1e-3f52-4d7e-9a61-2f8f0c1d4e77:reserve-stock:action",
 *   "orderId": "ord_4823c2af",
 *   "lines": [{ "sku": "book-0451", "quantity": 2 }]
 * }
 */
export class InventoryReserveStockV1 extends SagaCommandFieldsV1 {
  /** What to reserve: at least one line. */
  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StockLineV1)
  lines: StockLineV1[];
}
