import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, SHOP_ORDER_PLACED_V1, ShopOrderCancelledV1, ShopOrderPlacedV1 } from '@app/contracts';
import { SagaReplyEvent } from '@app/saga';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ApplyFulfilmentReplyUseCase } from './apply-fulfilment-reply.usecase';
import { CancelFulfilmentUseCase } from './cancel-fulfilment.usecase';
import { FULFILMENT_CANCELLATION_TYPES, FULFILMENT_REPLY_TYPES } from './order-fulfilment.saga';
import { StartFulfilmentUseCase } from './start-fulfilment.usecase';

/**
 * Thin edge of the saga coordinator: an order placed starts a saga; a participant's reply moves one; an order
 * cancelled by the shop cancels its saga.
 */
@Controller()
export class FulfilmentController {
  constructor(
    private readonly start: StartFulfilmentUseCase,
    private readonly applyReply: ApplyFulfilmentReplyUseCase,
    private readonly cancelSaga: CancelFulfilmentUseCase,
  ) {}

  @EventPattern(SHOP_ORDER_PLACED_V1)
  placed(@Payload() event: CloudEvent<ShopOrderPlacedV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.start.execute(event, ctx);
  }

  @EventPattern([...FULFILMENT_REPLY_TYPES])
  reply(@Payload() event: SagaReplyEvent, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.applyReply.execute(event, ctx);
  }

  @EventPattern([...FULFILMENT_CANCELLATION_TYPES])
  cancelled(@Payload() event: CloudEvent<ShopOrderCancelledV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.cancelSaga.execute(event, ctx);
  }
}
