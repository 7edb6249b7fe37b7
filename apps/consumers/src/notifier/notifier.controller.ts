import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  SHOP_ORDER_CANCELLED_V1,
  SHOP_ORDER_PAID_V1,
  SHOP_ORDER_PLACED_V1,
  ShopOrderCancelledV1,
  ShopOrderPaidV1,
  ShopOrderPlacedV1,
} from '@app/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { SendOrderEmailUseCase } from './send-order-email.usecase';

/** Thin edge: the runtime has parsed, validated and deduplicated the event; each method sends one email. */
@Controller()
export class NotifierController {
  constructor(private readonly sendEmail: SendOrderEmailUseCase) {}

  @EventPattern(SHOP_ORDER_PLACED_V1)
  placed(@Payload() event: CloudEvent<ShopOrderPlacedV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.sendEmail.execute(event, ctx);
  }

  @EventPattern(SHOP_ORDER_PAID_V1)
  paid(@Payload() event: CloudEvent<ShopOrderPaidV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.sendEmail.execute(event, ctx);
  }

  @EventPattern(SHOP_ORDER_CANCELLED_V1)
  cancelled(@Payload() event: CloudEvent<ShopOrderCancelledV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.sendEmail.execute(event, ctx);
  }
}
