import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, ShopOrderPlacedV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { FulfilmentSaga } from './fulfilment-saga.service';
import { ORDER_FULFILMENT } from './order-fulfilment.saga';

/**
 * An order placed starts its fulfilment saga, in the consumer's transaction: the saga row, its first history row and
 * the first command (reserve stock) commit with the event's dedupe row. One saga per order: a replayed or repeated
 * order event finds the saga and writes nothing.
 */
@Injectable()
export class StartFulfilmentUseCase {
  constructor(private readonly saga: FulfilmentSaga) {}

  async execute(event: CloudEvent<ShopOrderPlacedV1>, ctx: ConsumerContext): Promise<void> {
    const transition = await this.saga.coordinator.start(this.saga.transaction(ctx), ORDER_FULFILMENT, {
      correlationId: event.data.orderId,
      startEventId: event.id,
      data: event.data,
    });
    this.saga.log(transition, { eventId: event.id, orderId: event.data.orderId });
  }
}
