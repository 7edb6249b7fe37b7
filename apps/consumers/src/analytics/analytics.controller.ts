import { ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent, SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { CountEventUseCase } from './count-event.usecase';

/** The runtime has parsed, validated and deduplicated each event; every handler counts it. */
@Controller()
export class AnalyticsController {
  constructor(private readonly countEvent: CountEventUseCase) {}

  @EventPattern(SHOP_ORDER_PLACED_V1)
  placed(@Payload() event: CloudEvent, @Ctx() ctx: ConsumerContext): void {
    this.countEvent.execute(ctx, event);
  }

  @EventPattern(SHOP_ORDER_PAID_V1)
  paid(@Payload() event: CloudEvent, @Ctx() ctx: ConsumerContext): void {
    this.countEvent.execute(ctx, event);
  }

  @EventPattern(SHOP_ORDER_CANCELLED_V1)
  cancelled(@Payload() event: CloudEvent, @Ctx() ctx: ConsumerContext): void {
    this.countEvent.execute(ctx, event);
  }
}
