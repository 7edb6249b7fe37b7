import { ConsumerContext } from '@app/consumer-runtime';
import {
  CloudEvent,
  PAYMENTS_CARD_CHARGE_FAILED_V1,
  PAYMENTS_CARD_CHARGED_V1,
  PaymentsChargeCardV1,
} from '@app/contracts';
import { LOGGER } from '@app/logger';
import { dropExpiredAction, queueSagaReply } from '@app/saga';
import { Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { ProviderCallFault } from '../fault-injection/provider-call-fault';
import { PaymentProviderClient, PaymentRejectedError } from './payment-provider.client';
import { ChargeIntent, PaymentsRepository, PaymentState } from './payments.repository';
import { IntentBatch } from '../bookkeeping-query';

export const PAYMENTS_SOURCE = '/participants/payments';

/**
 * Charges the card once per saga, in the order that makes a crash cheap (like the notifier):
 * 1. commit the intent (`charging`) — a restart finds it;
 * 2. call the provider with the step's `Idempotency-Key` — the irreversible step, last;
 * 3. `charged` and the reply in the consumer's transaction (with its dedupe row; `declined` commits on its own).
 * Killed between 2 and 3, the redelivered command calls again with the same key and the provider answers with the
 * charge it made. A payment already charged, declined or refunded is answered from the row, without a call. A
 * command past its deadline (the saga sent it again, or compensates it) is dropped unapplied at any attempt, so that
 * a charge that keeps failing does not hold up the refund behind it on the order's key.
 */
@Injectable()
export class ChargeCardUseCase {
  private readonly fault: ProviderCallFault;
  /** The intents of commands applied at the same time, in one statement. */
  private readonly intents: IntentBatch<ChargeIntent, PaymentState>;
  /** `charged` for every charge of the consumer's transaction, in one statement. */
  private readonly writeCharged = async (
    manager: EntityManager,
    charged: Array<{ sagaId: string; chargeId: string }>,
  ) => {
    for (const sagaId of await PaymentsRepository.markCharged(manager, charged)) {
      // A refund began while this charge was in flight (an operator replay racing the compensation): say so loudly.
      const { chargeId } = charged.find((row) => row.sagaId === sagaId)!;
      this.logger.error({ sagaId, chargeId }, 'charged after the refund of this payment began');
    }
  };

  constructor(
    private readonly deps: ConsumerServiceDeps,
    private readonly provider: PaymentProviderClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.fault = new ProviderCallFault(deps.config.HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS, logger);
    this.intents = new IntentBatch((intents) => PaymentsRepository.recordChargeIntents(deps.bookkeeping, intents));
  }

  async execute(command: CloudEvent<PaymentsChargeCardV1>, ctx: ConsumerContext): Promise<void> {
    if (dropExpiredAction(command, ctx)) return;
    const { sagaId, orderId, amount, currency, customerId, idempotencyKey } = command.data;
    const reply = (type: string, data: Record<string, unknown>) =>
      queueSagaReply(ctx, command, type, PAYMENTS_SOURCE, { orderId, ...data });
    const payment = await this.intents.record({ sagaId, orderId, amount, currency, chargeKey: idempotencyKey });
    if (payment.status === 'charged')
      return reply(PAYMENTS_CARD_CHARGED_V1, { chargeId: payment.chargeId, amount, currency });
    if (payment.status !== 'charging') {
      const reason = payment.reason ?? `the payment is ${payment.status}; not charged`;
      return reply(PAYMENTS_CARD_CHARGE_FAILED_V1, { reason });
    }
    if (payment.chargeCalls > 1)
      ctx.logger.info({ sagaId, call: payment.chargeCalls }, 'charging again with the same idempotency key');

    let charged: { chargeId: string };
    try {
      charged = await this.provider.charge(
        { amount, currency, customer: customerId, reference: orderId },
        idempotencyKey,
      );
    } catch (error) {
      if (!(error instanceof PaymentRejectedError)) throw error;
      await PaymentsRepository.markDeclined(this.deps.bookkeeping, sagaId, error.message);
      return reply(PAYMENTS_CARD_CHARGE_FAILED_V1, { reason: error.message });
    }
    this.fault.called({ sagaId, eventId: command.id });
    ctx.write(this.writeCharged, { sagaId, chargeId: charged.chargeId });
    return reply(PAYMENTS_CARD_CHARGED_V1, { chargeId: charged.chargeId, amount, currency });
  }
}
