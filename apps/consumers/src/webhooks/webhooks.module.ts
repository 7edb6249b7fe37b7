import { Module } from '@nestjs/common';
import type { ConsumerService } from '../consumer-service';
import {
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookCustomerEntity,
  WebhookEndpointEntity,
  WebhookEndpointSecretEntity,
} from '@app/webhooks/entities';
import { WebhookWorkers } from './delivery/webhook-workers';
import { FanOutEventUseCase } from './fan-out/fan-out-event.usecase';
import { WebhooksController } from './webhooks.controller';
import { WebhookDeliveryEnv } from './config/webhook-delivery.env';

/**
 * Outbound webhooks: consumer group `webhooks` turns every event of its topics into delivery rows (one per endpoint
 * whose filters match); the delivery workers in the same process send them, signed, retried on a schedule.
 */
@Module({
  controllers: [WebhooksController],
  providers: [FanOutEventUseCase, WebhookWorkers],
})
export class WebhooksModule {}

export const WEBHOOKS_SERVICE: ConsumerService<WebhookDeliveryEnv> = {
  group: 'webhooks',
  topics: [],
  module: WebhooksModule,
  env: WebhookDeliveryEnv,
  topicsFrom(config: WebhookDeliveryEnv) {
    return config.OUTBOUND_WEBHOOKS_TOPICS;
  },
  entities: [
    WebhookCustomerEntity,
    WebhookEndpointEntity,
    WebhookEndpointSecretEntity,
    WebhookDeliveryEntity,
    WebhookDeliveryAttemptEntity,
  ],
  owner: { team: 'platform', contact: 'platform@example.com' },
};
