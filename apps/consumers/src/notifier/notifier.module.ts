import { TOPICS } from '@app/contracts';
import { Module } from '@nestjs/common';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { EmailProviderClient } from './email-provider.client';
import { NotifierController } from './notifier.controller';
import { NotifierMetrics } from './notifier.metrics';
import { SendOrderEmailUseCase } from './send-order-email.usecase';
import { NotifierEnv } from './notifier.env';
import { NotificationEntity } from './notification.entity';
import { deleteSentNotificationsBefore } from './notifications.repository';

/** The notifier: consumer group `notifier`, one email per shop order event through the email provider's API. */
@Module({
  controllers: [NotifierController],
  providers: [
    SendOrderEmailUseCase,
    {
      provide: EmailProviderClient,
      inject: [ConsumerServiceDeps],
      useFactory: ({ config }: ConsumerServiceDeps<NotifierEnv>) =>
        new EmailProviderClient({
          baseUrl: config.EMAIL_PROVIDER_URL,
          apiKey: config.EMAIL_PROVIDER_API_KEY,
          timeoutMs: config.EMAIL_PROVIDER_TIMEOUT_MS,
        }),
    },
    {
      provide: NotifierMetrics,
      inject: [ConsumerServiceDeps],
      useFactory: ({ metrics }: ConsumerServiceDeps) => new NotifierMetrics(metrics.registry),
    },
  ],
})
export class NotifierModule {}

export const NOTIFIER_SERVICE = {
  group: 'notifier',
  topics: [TOPICS.shopOrders],
  module: NotifierModule,
  env: NotifierEnv,
  entities: [NotificationEntity],
  history: { notifications: deleteSentNotificationsBefore },
  concurrency: 'key',
  owner: { team: 'customer-messaging', contact: 'messaging@example.com' },
} as const;
