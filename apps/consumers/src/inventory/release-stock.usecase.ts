import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, INVENTORY_STOCK_RELEASED_V1, InventoryReleaseStockV1 } from '@app/contracts';
import { queueSagaReply } from '@app/saga';
import { Injectable } from '@nestjs/common';
import { INVENTORY_SOURCE } from './reserve-stock.usecase';
import { StockBooks } from './stock-books';

/**
 * Gives a saga's reservation back, once: only a `reserved` reservation puts units back; releasing again, or
 * releasing what was never reserved, changes no stock. Always replies `stock-released`.
 */
@Injectable()
export class ReleaseStockUseCase {
  constructor(private readonly books: StockBooks) {}

  async execute(command: CloudEvent<InventoryReleaseStockV1>, ctx: ConsumerContext): Promise<void> {
    const { sagaId, orderId } = command.data;
    (await this.books.of(ctx)).release(sagaId, orderId);
    queueSagaReply(ctx, command, INVENTORY_STOCK_RELEASED_V1, INVENTORY_SOURCE, { orderId });
  }
}
