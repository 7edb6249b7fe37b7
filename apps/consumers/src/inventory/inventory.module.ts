import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import { WakeRelaysAfterCommit } from '../wake-relays-after-commit';
import { InventoryController } from './inventory.controller';
import { ReleaseStockUseCase } from './release-stock.usecase';
import { ReserveStockUseCase } from './reserve-stock.usecase';
import { StockBooks } from './stock-books';
import { InventoryEnv } from './inventory.env';
import { StockEntity } from './stock.entity';
import { StockReservationEntity } from './stock-reservation.entity';

/**
 * The inventory participant: consumer group `inventory` reserves and releases stock in its own `stock` table, one
 * reservation per saga, and replies on the command's reply topic through the outbox, all in one transaction.
 */
@Module({
  controllers: [InventoryController],
  providers: [WakeRelaysAfterCommit, StockBooks, ReserveStockUseCase, ReleaseStockUseCase],
})
export class InventoryModule {}

export const INVENTORY_SERVICE = {
  group: 'inventory',
  topics: [TOPICS.inventoryCommands],
  module: InventoryModule,
  env: InventoryEnv,
  entities: [StockEntity, StockReservationEntity],
  owner: { team: 'warehouse', contact: 'warehouse@example.com' },
} as const;
