import { Type } from 'class-transformer';
import { IsInt, Min } from 'class-validator';

/** The inventory participant's configuration (group `inventory`). */
export class InventoryEnv {
  /**
   * Units a SKU without a `stock` row starts with at its first reservation; 0: an unknown SKU is out of stock.
   * `npm start` sets 1000.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  INVENTORY_INITIAL_STOCK = 0;
}
