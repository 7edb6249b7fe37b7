import { Module } from '@nestjs/common';
import { ConsumersEnv } from '../config/consumers.env';
import { WebhookWorkers } from './delivery/webhook-workers';
import { FanOutEventUseCase } from './fan-out/fan-out-event.usecase';
import { WebhooksController } from './webhooks.controller';

/**
 * Outbound webhooks: consumer group `webhooks` turns every event of its topics into delivery rows (one per endpoint
 * whose filters match); the delivery workers in the same process send them, signed, retried on a schedule.
 */
@Module({
  controllers: [WebhooksController],
  providers: [FanOutEventUseCase, WebhookWorkers],
})
export class WebhooksModule {}

export const WEBHOOKS_SERVICE = {
  group: 'webhooks',
  topics: [],
  topicsFrom: (config: ConsumersEnv) => config.OUTBOUND_WEBHOOKS_TOPICS,
  module: WebhooksModule,
  owner: { team: 'platform', contact: 'platform@example.com' },
} as const;
