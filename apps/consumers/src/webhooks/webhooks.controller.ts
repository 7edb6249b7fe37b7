import { ANY_EVENT_TYPE, ConsumerContext } from '@app/consumer-runtime';
import { CloudEvent } from '@app/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { FanOutEventUseCase } from './fan-out/fan-out-event.usecase';

/** Thin edge: every event of the group's topics, whatever its type, goes to the fan-out (endpoints filter by type). */
@Controller()
export class WebhooksController {
  constructor(private readonly fanOut: FanOutEventUseCase) {}

  @EventPattern(ANY_EVENT_TYPE)
  event(@Payload() event: CloudEvent, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.fanOut.execute(event, ctx);
  }
}
