import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  PAYMENTS_CHARGE_CARD_V1,
  PAYMENTS_REFUND_CHARGE_V1,
  PaymentsChargeCardV1,
  PaymentsRefundChargeV1,
} from '@app/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ChargeCardUseCase } from './charge-card.usecase';
import { RefundChargeUseCase } from './refund-charge.usecase';

/** Thin edge of the payments participant: one use case per command. */
@Controller()
export class PaymentsController {
  constructor(
    private readonly chargeCard: ChargeCardUseCase,
    private readonly refundCharge: RefundChargeUseCase,
  ) {}

  @EventPattern(PAYMENTS_CHARGE_CARD_V1)
  charge(@Payload() command: CloudEvent<PaymentsChargeCardV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.chargeCard.execute(command, ctx);
  }

  @EventPattern(PAYMENTS_REFUND_CHARGE_V1)
  refund(@Payload() command: CloudEvent<PaymentsRefundChargeV1>, @Ctx() ctx: ConsumerContext): Promise<void> {
    return this.refundCharge.execute(command, ctx);
  }
}
