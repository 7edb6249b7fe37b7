import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  SHIPPING_CANCEL_SHIPMENT_V1,
  SHIPPING_CREATE_SHIPMENT_V1,
  ShippingCancelShipmentV1,
  ShippingCreateShipmentV1,
} from '@app/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { CancelShipmentUseCase } from './cancel-shipment.usecase';
import { CreateShipmentUseCase } from './create-shipment.usecase';

/** Thin edge of the shipping participant: one use case per command. */
@Controller()
export class ShippingController {
  constructor(
    private readonly createShipment: CreateShipmentUseCase,
    private readonly cancelShipment: CancelShipmentUseCase,
  ) {}

  @EventPattern(SHIPPING_CREATE_SHIPMENT_V1)
  create(@Payload() command: CloudEvent<ShippingCreateShipmentV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.createShipment.execute(command, ctx);
  }

  @EventPattern(SHIPPING_CANCEL_SHIPMENT_V1)
  cancel(@Payload() command: CloudEvent<ShippingCancelShipmentV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.cancelShipment.execute(command, ctx);
  }
}
