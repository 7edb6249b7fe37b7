import { ConsumerContext } from '@app/consumer-runtime';
import {
  INVENTORY_RELEASE_STOCK_V1,
  INVENTORY_RESERVE_STOCK_V1,
  InventoryReleaseStockV1,
  InventoryReserveStockV1,
} from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { StockRepository } from './stock.repository';
import { InventoryEnv } from './inventory.env';

/**
 * Every stock row a consumer transaction's commands touch, locked at its first command, in one statement and in SKU
 * order: the SKUs its reservations ask for and those its releases give back. Two transactions (two processes of the
 * group) whose batches take the same SKUs in different orders then wait for each other instead of deadlocking. SKUs
 * without a row get one first (INVENTORY_INITIAL_STOCK), inserted in the same order.
 */
@Injectable()
export class StockLocks {
  private readonly locked = new WeakMap<EntityManager, Promise<void>>();

  constructor(private readonly deps: ConsumerServiceDeps<InventoryEnv>) {}

  /** Before a command of `ctx.batch` touches stock; the first call of a transaction locks for all of them. */
  lock(ctx: ConsumerContext): Promise<void> {
    let locked = this.locked.get(ctx.manager);
    if (!locked) {
      locked = this.lockBatch(ctx);
      this.locked.set(ctx.manager, locked);
    }
    return locked;
  }

  private async lockBatch({ manager, batch }: ConsumerContext): Promise<void> {
    const reserved = batch
      .filter((event) => event.type === INVENTORY_RESERVE_STOCK_V1)
      .flatMap((event) => (event.data as InventoryReserveStockV1).lines.map((line) => line.sku));
    const releases = batch
      .filter((event) => event.type === INVENTORY_RELEASE_STOCK_V1)
      .map((event) => (event.data as InventoryReleaseStockV1).sagaId);
    const released = releases.length > 0 ? await StockRepository.reservedSkus(manager, releases) : [];
    const skus = [...new Set([...reserved, ...released])];
    if (skus.length === 0) return;
    const initial = this.deps.config.INVENTORY_INITIAL_STOCK;
    if (initial > 0) await StockRepository.addMissingSkus(manager, skus, initial);
    await StockRepository.lockInOrder(manager, skus);
  }
}
