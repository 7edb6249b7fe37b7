import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsObject, ValidateNested } from 'class-validator';
import { SagaCommandFieldsV1, StockLineV1 } from '../common/saga-fields';

export const INVENTORY_RESERVE_STOCK_V1 = 'inventory.reserve-stock.v1';

/** Command: reserve these lines for the saga, all or none. Idempotent per saga. */
export class InventoryReserveStockV1 extends SagaCommandFieldsV1 {
  @IsArray()
  @ArrayMinSize(1)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => StockLineV1)
  lines: StockLineV1[];
}
