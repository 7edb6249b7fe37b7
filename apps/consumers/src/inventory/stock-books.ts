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
import { StockBook } from './stock-book';
import { StockRepository } from './stock.repository';
import { InventoryEnv } from './inventory.env';

/**
 * The stock book of each consumer transaction, opened at its first command for all of `ctx.batch`: the reservations
 * of the batch's sagas, then the rows of every SKU its reservations ask for or its releases give back, each set locked
 * in one statement, in one order (saga id, then SKU), so that two transactions (two processes of the group) whose
 * batches overlap wait for each other instead of deadlocking. SKUs without a row get one first
 * (INVENTORY_INITIAL_STOCK), inserted in SKU order. What the commands change is written once, before the commit: a
 * batch costs a handful of statements, not several round trips per command.
 */
@Injectable()
export class StockBooks {
  private readonly books = new WeakMap<EntityManager, Promise<StockBook>>();

  constructor(private readonly deps: ConsumerServiceDeps<InventoryEnv>) {}

  /** The book of `ctx`'s transaction, opened (locked and read) at the first call. */
  of(ctx: ConsumerContext): Promise<StockBook> {
    let book = this.books.get(ctx.manager);
    if (!book) {
      book = this.open(ctx);
      this.books.set(ctx.manager, book);
    }
    return book;
  }

  private async open(ctx: ConsumerContext): Promise<StockBook> {
    const { manager, batch } = ctx;
    const commands = batch.filter(
      (event) => event.type === INVENTORY_RESERVE_STOCK_V1 || event.type === INVENTORY_RELEASE_STOCK_V1,
    );
    const sagaIds = [...new Set(commands.map((event) => (event.data as InventoryReleaseStockV1).sagaId))];
    const reservations = await StockRepository.lockReservations(manager, sagaIds);
    const skus = [
      ...new Set([
        ...commands
          .filter((event) => event.type === INVENTORY_RESERVE_STOCK_V1)
          .flatMap((event) => (event.data as InventoryReserveStockV1).lines.map((line) => line.sku)),
        ...reservations.filter((row) => row.status === 'reserved').flatMap((row) => row.lines.map((line) => line.sku)),
      ]),
    ];
    const initial = this.deps.config.INVENTORY_INITIAL_STOCK;
    if (skus.length > 0 && initial > 0) await StockRepository.addMissingSkus(manager, skus, initial);
    const available = skus.length > 0 ? await StockRepository.lockInOrder(manager, skus) : new Map<string, number>();
    const book = new StockBook(new Map(reservations.map((row) => [row.sagaId, row])), available);
    ctx.write(writeStockBook, book);
    return book;
  }
}

/** Writes what the transaction's commands changed in its book. */
async function writeStockBook(manager: EntityManager, books: StockBook[]): Promise<void> {
  for (const book of books) await StockRepository.write(manager, book.changes());
}
