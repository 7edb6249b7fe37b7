import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  PAYMENTS_CHARGE_REFUND_FAILED_V1,
  PAYMENTS_CHARGE_REFUNDED_V1,
  PaymentsRefundChargeV1,
} from '@app/contracts';
import { LOGGER } from '@app/logger';
import { queueSagaReply } from '@app/saga';
import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { ProviderCallFault } from '../fault-injection/provider-call-fault';
import { PAYMENTS_SOURCE } from './charge-card.usecase';
import { PaymentProviderClient, PaymentRejectedError } from './payment-provider.client';
import { PaymentsRepository } from './payments.repository';

/**
 * Refunds the saga's charge, idempotently: the intent (`refunding`) commits first, the provider refunds the charge
 * made with the charge's key once per refund key, then `refunded` and the reply; when the provider made no charge
 * with that key (`nothing_to_refund`: the charge call failed), `voided` instead. With no payment yet, a `voided` row
 * answers at once; either way a charge that arrives later is refused. A payment declined, voided or already refunded
 * is answered from the row.
 */
@Injectable()
export class RefundChargeUseCase {
  private readonly fault: ProviderCallFault;

  constructor(
    private readonly deps: ConsumerServiceDeps,
    private readonly provider: PaymentProviderClient,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.fault = new ProviderCallFault(deps.config.HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS, logger);
  }

  async execute(command: CloudEvent<PaymentsRefundChargeV1>, ctx: ConsumerContext): Promise<void> {
    const { sagaId, orderId, amount, currency, idempotencyKey } = command.data;
    const reply = (type: string, data: Record<string, unknown>) =>
      queueSagaReply(ctx, command, type, PAYMENTS_SOURCE, { orderId, ...data });
    const payment = await PaymentsRepository.recordRefundIntent(this.deps.bookkeeping, {
      sagaId,
      orderId,
      amount,
      currency,
      refundKey: idempotencyKey,
    });
    if (payment.status === 'refunded')
      return reply(PAYMENTS_CHARGE_REFUNDED_V1, { amount: payment.refundedAmount ?? 0, currency });
    if (payment.status !== 'refunding') return reply(PAYMENTS_CHARGE_REFUNDED_V1, { amount: 0, currency });

    let refunded: { refundId: string | null; amount: number; status: string };
    try {
      refunded = await this.provider.refund({ chargeKey: payment.chargeKey!, reference: orderId }, idempotencyKey);
    } catch (error) {
      if (!(error instanceof PaymentRejectedError)) throw error;
      return reply(PAYMENTS_CHARGE_REFUND_FAILED_V1, { reason: error.message });
    }
    this.fault.called({ sagaId, eventId: command.id });
    if (refunded.refundId === null)
      await PaymentsRepository.markVoided(
        this.deps.bookkeeping,
        sagaId,
        `no charge was made with this key (provider: ${refunded.status})`,
      );
    else await PaymentsRepository.markRefunded(this.deps.bookkeeping, sagaId, refunded.refundId, refunded.amount);
    return reply(PAYMENTS_CHARGE_REFUNDED_V1, { amount: refunded.amount, currency });
  }
}
