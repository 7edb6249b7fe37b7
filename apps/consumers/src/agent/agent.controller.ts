import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, SHOP_ORDER_PLACED_V1, ShopOrderPlacedV1 } from '@app/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { EnqueueAgentTaskUseCase } from './enqueue-agent-task.usecase';

/** Thin edge: an order placed with a note becomes an agent task (the model reads the note later). */
@Controller()
export class AgentController {
  constructor(private readonly enqueue: EnqueueAgentTaskUseCase) {}

  @EventPattern(SHOP_ORDER_PLACED_V1)
  placed(@Payload() event: CloudEvent<ShopOrderPlacedV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.enqueue.execute(event, ctx);
  }
}
