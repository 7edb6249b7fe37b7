import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import { ApplyFulfilmentReplyUseCase } from './apply-fulfilment-reply.usecase';
import { FulfilmentSaga } from './fulfilment-saga.service';
import { FulfilmentController } from './fulfilment.controller';
import { SagaDeadlinesSchedule } from './saga-deadlines.schedule';
import { StartFulfilmentUseCase } from './start-fulfilment.usecase';

/**
 * The order fulfilment saga's coordinator: consumer group `fulfilment` starts a saga per order placed and moves it
 * on the participants' replies; the deadline job resends or compensates what goes unanswered.
 */
@Module({
  controllers: [FulfilmentController],
  providers: [FulfilmentSaga, StartFulfilmentUseCase, ApplyFulfilmentReplyUseCase, SagaDeadlinesSchedule],
})
export class FulfilmentModule {}

export const FULFILMENT_SERVICE = {
  group: 'fulfilment',
  topics: [TOPICS.shopOrders, TOPICS.fulfilmentReplies],
  module: FulfilmentModule,
  owner: { team: 'order-fulfilment', contact: 'fulfilment@example.com' },
} as const;
