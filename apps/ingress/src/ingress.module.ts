import { DatabaseModule } from '@app/db';
import { LoggerModule } from '@app/logger';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Logger } from 'pino';
import { AdminModule } from './admin/admin.module';
import { BacklogRepository } from './backpressure/backlog.repository';
import { BACKPRESSURE_SETTINGS, BackpressureService } from './backpressure/backpressure.service';
import { IngressEnv } from './config/ingress.env';
import { EventsController } from './events/events.controller';
import { InboundEventRepository } from './events/inbound-event.repository';
import { outboxNotifierProvider } from './events/outbox-notifier.provider';
import { OutboxStatusRepository } from './events/outbox-status.repository';
import { SagaStatusRepository } from './events/saga-status.repository';
import { AcceptCloudEventUseCase } from './events/usecases/accept-cloudevent/accept-cloudevent.usecase';
import { ProducerTokens } from './events/usecases/accept-cloudevent/producer-auth';
import { GetEventStatusUseCase } from './events/usecases/get-event-status/get-event-status.usecase';
import { RecordEventUseCase } from './events/usecases/record-event/record-event.usecase';
import { StreamEventStatusUseCase } from './events/usecases/stream-event-status/stream-event-status.usecase';
import { HealthController } from './health/health.controller';
import { ProblemFilter } from './http/problem.filter';
import { IngressMetrics } from './metrics/ingress.metrics';
import { MetricsController } from './metrics/metrics.controller';
import { InboundEventsRetentionService } from './retention/inbound-events-retention.service';
import { SourceRegistry } from './sources/source-registry';
import { WebhookController } from './webhooks/webhook.controller';
import { AcceptWebhookUseCase } from './webhooks/usecases/accept-webhook/accept-webhook.usecase';

@Module({})
export class IngressModule {
  static forRoot(config: IngressEnv, logger: Logger, sources: SourceRegistry): DynamicModule {
    return {
      module: IngressModule,
      imports: [
        LoggerModule.forRoot(logger),
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          applicationName: 'hookrail-ingress',
          poolSize: config.DATABASE_POOL_SIZE,
        }),
        AdminModule.forRoot({
          adminToken: config.ADMIN_TOKEN,
          kafkaBrokers: config.KAFKA_BROKERS,
          kafkaNamespace: config.KAFKA_NAMESPACE,
        }),
      ],
      controllers: [WebhookController, EventsController, HealthController, MetricsController],
      providers: [
        { provide: IngressEnv, useValue: config },
        { provide: SourceRegistry, useValue: sources },
        { provide: ProducerTokens, useValue: new ProducerTokens(config.PRODUCER_TOKENS) },
        { provide: APP_FILTER, useClass: ProblemFilter },
        {
          provide: BACKPRESSURE_SETTINGS,
          useValue: {
            maxBacklog: config.BACKPRESSURE_MAX_BACKLOG,
            checkIntervalMs: config.BACKPRESSURE_CHECK_MS,
            retryAfterSeconds: 5,
          },
        },
        BacklogRepository,
        BackpressureService,
        IngressMetrics,
        InboundEventRepository,
        OutboxStatusRepository,
        SagaStatusRepository,
        outboxNotifierProvider,
        RecordEventUseCase,
        AcceptWebhookUseCase,
        AcceptCloudEventUseCase,
        GetEventStatusUseCase,
        StreamEventStatusUseCase,
        InboundEventsRetentionService,
      ],
    };
  }
}
