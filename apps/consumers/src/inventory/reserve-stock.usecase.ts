import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  INVENTORY_STOCK_RESERVATION_FAILED_V1,
  INVENTORY_STOCK_RESERVED_V1,
  InventoryReserveStockV1,
  StockLineV1,
} from '@app/contracts';
import { dropExpiredAction, queueSagaReply } from '@app/saga';
import { Injectable } from '@nestjs/common';
import { StockBooks } from './stock-books';

export const INVENTORY_SOURCE = '/participants/inventory';

/**
 * Reserves an order's lines, all or none, once per saga, in the transaction's stock book (StockBooks): the
 * reservation, the stock change and the reply commit in the consumer's transaction. Not enough stock is a failure
 * reply (`stock-reservation-failed`) naming each short SKU, not an error. A command for a saga that has a reservation
 * already (or a release that came first) is answered from it; one past its deadline is dropped unapplied.
 */
@Injectable()
export class ReserveStockUseCase {
  constructor(private readonly books: StockBooks) {}

  async execute(command: CloudEvent<InventoryReserveStockV1>, ctx: ConsumerContext): Promise<void> {
    if (dropExpiredAction(command, ctx)) return;
    const { sagaId, orderId } = command.data;
    const book = await this.books.of(ctx);
    const outcome = book.reserve(sagaId, orderId, bySku(command.data.lines));
    if (outcome.reserved) queueSagaReply(ctx, command, INVENTORY_STOCK_RESERVED_V1, INVENTORY_SOURCE, { orderId });
    else
      queueSagaReply(ctx, command, INVENTORY_STOCK_RESERVATION_FAILED_V1, INVENTORY_SOURCE, {
        orderId,
        reason: outcome.reason,
      });
  }
}

/** One line per SKU (repeated SKUs added up), in SKU order. */
function bySku(lines: StockLineV1[]): StockLineV1[] {
  const totals = new Map<string, number>();
  for (const line of lines) totals.set(line.sku, (totals.get(line.sku) ?? 0) + line.quantity);
  return [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([sku, quantity]) => ({ sku, quantity }));
}
