import { ConsumerContext } from '@app/consumer-runtime';
import { SagaReplyEvent } from '@app/saga';
import { Injectable } from '@nestjs/common';
import { FulfilmentSaga } from './fulfilment-saga.service';

/**
 * A participant's reply moves its saga, in the consumer's transaction (with the reply's dedupe row): the next
 * command, a compensation or the outcome goes to the outbox in that same transaction. A reply the saga is not
 * waiting for (a duplicate under another id, a late answer, one after a timeout moved on) changes nothing.
 */
@Injectable()
export class ApplyFulfilmentReplyUseCase {
  constructor(private readonly saga: FulfilmentSaga) {}

  async execute(event: SagaReplyEvent, ctx: ConsumerContext): Promise<void> {
    const transition = await this.saga.coordinator.reply(this.saga.transaction(ctx), event);
    this.saga.log(transition, { eventId: event.id, replyType: event.type });
  }
}
