import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  INVENTORY_RELEASE_STOCK_V1,
  INVENTORY_RESERVE_STOCK_V1,
  InventoryReleaseStockV1,
  InventoryReserveStockV1,
} from '@app/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ReleaseStockUseCase } from './release-stock.usecase';
import { ReserveStockUseCase } from './reserve-stock.usecase';

/** Thin edge of the inventory participant: one use case per command. */
@Controller()
export class InventoryController {
  constructor(
    private readonly reserveStock: ReserveStockUseCase,
    private readonly releaseStock: ReleaseStockUseCase,
  ) {}

  @EventPattern(INVENTORY_RESERVE_STOCK_V1)
  reserve(@Payload() command: CloudEvent<InventoryReserveStockV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.reserveStock.execute(command, ctx);
  }

  @EventPattern(INVENTORY_RELEASE_STOCK_V1)
  release(@Payload() command: CloudEvent<InventoryReleaseStockV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.releaseStock.execute(command, ctx);
  }
}
