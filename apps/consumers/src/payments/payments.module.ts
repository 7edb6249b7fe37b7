import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { WakeRelaysAfterCommit } from '../wake-relays-after-commit';
import { ChargeCardUseCase } from './charge-card.usecase';
import { PaymentProviderClient } from './payment-provider.client';
import { PaymentsController } from './payments.controller';
import { RefundChargeUseCase } from './refund-charge.usecase';
import { PaymentsEnv } from './payments.env';
import { PaymentEntity } from './payment.entity';

/**
 * The payments participant: consumer group `payments` charges and refunds through the payment provider's API, one
 * row per saga in `payments`, and replies on the command's reply topic through the outbox.
 */
@Module({
  controllers: [PaymentsController],
  providers: [
    WakeRelaysAfterCommit,
    ChargeCardUseCase,
    RefundChargeUseCase,
    {
      provide: PaymentProviderClient,
      inject: [ConsumerServiceDeps],
      useFactory: ({ config }: ConsumerServiceDeps<PaymentsEnv>) =>
        new PaymentProviderClient({
          baseUrl: config.PAYMENT_PROVIDER_URL,
          apiKey: config.PAYMENT_PROVIDER_API_KEY,
          timeoutMs: config.PAYMENT_PROVIDER_TIMEOUT_MS,
        }),
    },
  ],
})
export class PaymentsModule {}

export const PAYMENTS_SERVICE = {
  group: 'payments',
  topics: [TOPICS.paymentsCommands],
  module: PaymentsModule,
  env: PaymentsEnv,
  entities: [PaymentEntity],
  concurrency: 'key',
  owner: { team: 'payments', contact: 'payments@example.com' },
} as const;
