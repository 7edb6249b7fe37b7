import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, ShopOrderCancelledV1 } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { FulfilmentSaga } from './fulfilment-saga.service';

/**
 * An order cancelled by the shop cancels its running fulfilment saga, in the consumer's transaction (with the event's
 * dedupe row): the compensation of the current step goes to the outbox with the move, and the saga ends `cancelled`
 * once everything it did is undone. A saga already compensating, ended or failed, or none, is left as it is.
 */
@Injectable()
export class CancelFulfilmentUseCase {
  constructor(private readonly saga: FulfilmentSaga) {}

  async execute(event: CloudEvent<ShopOrderCancelledV1>, ctx: ConsumerContext): Promise<void> {
    const transitions = await this.saga.coordinator.cancel(this.saga.transaction(ctx), event);
    for (const transition of transitions) this.saga.log(transition, { eventId: event.id, orderId: event.data.orderId });
  }
}
