import { AccessTokens, OperatorTokensRepository } from '@app/access';
import { AgentTaskStatusRepository } from '@app/agent-tasks';
import { Database, DatabaseModule } from '@app/db';
import { InboundEventRepository } from '@app/inbound-events';
import { WebhookDeliveryStatusRepository } from '@app/webhooks';
import { LoggerModule } from '@app/logger';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Logger } from 'pino';
import { BACKPRESSURE_SETTINGS, BackpressureService } from './backpressure/backpressure.service';
import { IngressEnv } from './config/ingress.env';
import { EventsController } from './events/events.controller';
import { GROUP_COMMIT_SETTINGS, GroupCommitSettings, GroupCommitWriter } from './events/group-commit.writer';
import { outboxNotifierProvider } from './events/outbox-notifier.provider';
import { STATUS_ACCESS_SETTINGS, StatusAccessSettings, StatusReaders } from './events/status-access/status-readers';
import { CloudEventTopics } from './events/topic-routing';
import { AcceptCloudEventUseCase } from './events/usecases/accept-cloudevent/accept-cloudevent.usecase';
import { ProducerTokens } from './events/usecases/accept-cloudevent/producer-auth';
import { GetEventStatusUseCase } from './events/usecases/get-event-status/get-event-status.usecase';
import { RecordEventUseCase } from './events/usecases/record-event/record-event.usecase';
import { StreamEventStatusUseCase } from './events/usecases/stream-event-status/stream-event-status.usecase';
import { HealthController } from '@app/http';
import { ProblemFilter } from './http/problem.filter';
import { INGRESS_ENTITIES } from './ingress.entities';
import { IngressMetrics } from './metrics/ingress.metrics';
import { MetricsController } from './metrics/metrics.controller';
import { REJECTION_SETTINGS, RejectionLog } from './rejections/rejection-log';
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
          // Kept open and opened before /readyz says ready: the group commit's statements and a few reads.
          minPoolSize: Math.min(config.DATABASE_POOL_SIZE, writeConnections(config) + 2),
          entities: INGRESS_ENTITIES,
        }),
      ],
      controllers: [WebhookController, EventsController, HealthController, MetricsController],
      providers: [
        { provide: IngressEnv, useValue: config },
        { provide: SourceRegistry, useValue: sources },
        { provide: ProducerTokens, useValue: new ProducerTokens(config.PRODUCER_TOKENS) },
        { provide: CloudEventTopics, useValue: new CloudEventTopics(config.KAFKA_NAMESPACE) },
        {
          provide: STATUS_ACCESS_SETTINGS,
          useValue: {
            mode: config.EVENT_STATUS_ACCESS,
            recheckMs: config.EVENT_STATUS_RECHECK_MS,
          } satisfies StatusAccessSettings,
        },
        // Stored tokens only: the ingress has no bootstrap (ADMIN_TOKEN) token.
        {
          provide: AccessTokens,
          inject: [Database],
          useFactory: (database: Database) =>
            new AccessTokens(undefined, new OperatorTokensRepository(database.dataSource)),
        },
        StatusReaders,
        { provide: APP_FILTER, useClass: ProblemFilter },
        {
          provide: BACKPRESSURE_SETTINGS,
          useValue: {
            maxBacklog: config.BACKPRESSURE_MAX_BACKLOG,
            checkIntervalMs: config.BACKPRESSURE_CHECK_MS,
            retryAfterSeconds: 5,
          },
        },
        {
          provide: GROUP_COMMIT_SETTINGS,
          useValue: {
            maxRows: config.GROUP_COMMIT_MAX_ROWS,
            maxWaitMs: config.GROUP_COMMIT_WAIT_MS,
            // Without grouping each delivery is its own statement, as many at once as the pool has connections.
            maxInFlight: writeConnections(config),
            maxPending: config.INGRESS_MAX_PENDING,
            commitTimeoutMs: config.INGRESS_COMMIT_TIMEOUT_MS,
          } satisfies GroupCommitSettings,
        },
        {
          provide: REJECTION_SETTINGS,
          useValue: { keptPerSource: config.REJECTIONS_KEPT_PER_SOURCE, bodyPrefixChars: 1024 },
        },
        RejectionLog,
        BackpressureService,
        IngressMetrics,
        InboundEventRepository,
        GroupCommitWriter,
        AgentTaskStatusRepository,
        WebhookDeliveryStatusRepository,
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

/** Statements the group commit runs at once: without grouping, each delivery its own, as many as the pool has. */
function writeConnections(config: IngressEnv): number {
  return config.GROUP_COMMIT_MAX_ROWS === 1 ? config.DATABASE_POOL_SIZE : config.GROUP_COMMIT_MAX_IN_FLIGHT;
}
