import { TOPICS } from '@app/contracts';
import { SagasRepository } from '@app/saga';
import { SagaEntity, SagaStepEntity } from '@app/saga/entities';
import { Module } from '@nestjs/common';
import type { ConsumerService } from '../consumer-service';
import { ApplyFulfilmentReplyUseCase } from './apply-fulfilment-reply.usecase';
import { CancelFulfilmentUseCase } from './cancel-fulfilment.usecase';
import { FulfilmentSaga } from './fulfilment-saga.service';
import { FulfilmentController } from './fulfilment.controller';
import { SagaDeadlinesSchedule } from './saga-deadlines.schedule';
import { StartFulfilmentUseCase } from './start-fulfilment.usecase';
import { FulfilmentEnv } from './fulfilment.env';

/**
 * The order fulfilment saga's coordinator: consumer group `fulfilment` starts a saga per order placed, moves it on the
 * participants' replies and cancels it when the shop cancels the order; the deadline job resends or compensates what
 * goes unanswered, sends refused compensations again after their backoff, and carries out operators' requests.
 */
@Module({
  controllers: [FulfilmentController],
  providers: [
    FulfilmentSaga,
    StartFulfilmentUseCase,
    ApplyFulfilmentReplyUseCase,
    CancelFulfilmentUseCase,
    SagaDeadlinesSchedule,
  ],
})
export class FulfilmentModule {}

export const FULFILMENT_SERVICE: ConsumerService<FulfilmentEnv> = {
  group: 'fulfilment',
  topics: [TOPICS.shopOrders, TOPICS.fulfilmentReplies],
  module: FulfilmentModule,
  env: FulfilmentEnv,
  entities: [SagaEntity, SagaStepEntity],
  history: { sagas: (manager, cutoff, limit) => SagasRepository.deleteEndedBefore(manager, cutoff, limit) },
  owner: { team: 'order-fulfilment', contact: 'fulfilment@example.com' },
};
