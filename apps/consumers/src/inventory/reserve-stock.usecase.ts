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
import { StockLocks } from './stock-locks';
import { StockRepository } from './stock.repository';

export const INVENTORY_SOURCE = '/participants/inventory';

/**
 * Reserves an order's lines, all or none, once per saga; the reservation, the stock change and the reply commit in
 * the consumer's transaction, whose stock rows are locked first, in SKU order (StockLocks). Not enough stock is a
 * failure reply (`stock-reservation-failed`), not an error. A command for a saga that has a reservation already (or a
 * release that came first) is answered from it; one past its deadline is dropped unapplied.
 */
@Injectable()
export class ReserveStockUseCase {
  constructor(private readonly locks: StockLocks) {}

  async execute(command: CloudEvent<InventoryReserveStockV1>, ctx: ConsumerContext): Promise<void> {
    if (dropExpiredAction(command, ctx)) return;
    const { sagaId, orderId } = command.data;
    const { manager } = ctx;
    const reply = (type: string, data: Record<string, unknown> = {}) =>
      queueSagaReply(ctx, command, type, INVENTORY_SOURCE, { orderId, ...data });
    const lines = bySku(command.data.lines);
    await this.locks.lock(ctx);
    const { claimed, taken } = await StockRepository.reserve(manager, { sagaId, orderId, lines });
    if (!claimed) {
      const existing = await StockRepository.findReservation(manager, sagaId);
      if (existing.status === 'reserved') return reply(INVENTORY_STOCK_RESERVED_V1);
      return reply(INVENTORY_STOCK_RESERVATION_FAILED_V1, { reason: existing.reason ?? existing.status });
    }
    if (taken.length < lines.length) {
      if (taken.length > 0) await StockRepository.putBack(manager, taken);
      const available = await StockRepository.available(manager, lines);
      const short = lines.filter((line) => (available.get(line.sku) ?? 0) < line.quantity);
      const reason = `out of stock: ${short
        .map((line) => `${line.sku} (${line.quantity} wanted, ${available.get(line.sku) ?? 0} available)`)
        .join(', ')}`;
      await StockRepository.refuse(manager, sagaId, reason);
      return reply(INVENTORY_STOCK_RESERVATION_FAILED_V1, { reason });
    }
    return reply(INVENTORY_STOCK_RESERVED_V1);
  }
}

/** One line per SKU (repeated SKUs added up), in SKU order. */
function bySku(lines: StockLineV1[]): StockLineV1[] {
  const totals = new Map<string, number>();
  for (const line of lines) totals.set(line.sku, (totals.get(line.sku) ?? 0) + line.quantity);
  return [...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([sku, quantity]) => ({ sku, quantity }));
}
