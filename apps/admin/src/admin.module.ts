import { KafkaConnection } from '@app/kafka';
import { SsrfGuard, SsrfPolicy } from '@app/ssrf-guard';
import { DynamicModule, Module } from '@nestjs/common';
import { ADMIN_KAFKA_BROKERS, ADMIN_KAFKA_NAMESPACE, AdminKafka } from './admin-kafka';
import { AccessGuard } from './access/access.guard';
import { accessTokensProvider } from './access/access-tokens.provider';
import { TokensAdminController } from './access/tokens.admin.controller';
import { TokensAdminUseCase } from './access/tokens-admin.usecase';
import { BreakersAdminController } from './breakers.admin.controller';
import { ChartsAdminController } from './charts/charts.admin.controller';
import { GetChartsUseCase } from './charts/get-charts.usecase';
import { OPS_SAMPLE_SETTINGS, OpsSamplesService } from './charts/ops-samples.service';
import { ConsoleController } from './console.controller';
import { CustomersAdminController } from './customers/customers.admin.controller';
import { CustomersAdminUseCase, PORTAL_PUBLIC_URL } from './customers/customers-admin.usecase';
import { DeadLettersAdminController } from './dead-letters.admin.controller';
import { ConsumerLagProbe } from './lag/consumer-lag.probe';
import { OperationsAdminController } from './operations.admin.controller';
import { OperationsViewsAdminController } from './operations-views.admin.controller';
import { SagasAdminController } from './sagas.admin.controller';
import { SourcesAdminController } from './sources.admin.controller';
import { ParkedKeysAdminController } from './parked-keys.admin.controller';
import { ChangeDeadLettersUseCase } from './usecases/change-dead-letters.usecase';
import { ListBreakersUseCase } from './usecases/list-breakers.usecase';
import { GetEventTrailUseCase } from './usecases/get-event-trail.usecase';
import { GetOperationsUseCase } from './usecases/get-operations.usecase';
import { ListConsumerGroupsUseCase } from './usecases/list-consumer-groups.usecase';
import { ListDeadLettersUseCase } from './usecases/list-dead-letters.usecase';
import { ListJobsUseCase } from './usecases/list-jobs.usecase';
import { ListSagasUseCase } from './usecases/list-sagas.usecase';
import { ADMIN_SOURCES, AdminSources, ListSourcesUseCase } from './usecases/list-sources.usecase';
import { RetrySagaUseCase } from './usecases/retry-saga.usecase';
import { CancelSagaUseCase } from './usecases/cancel-saga.usecase';
import { ParkedKeysUseCase } from './usecases/parked-keys.usecase';
import { ShowDeadLetterUseCase } from './usecases/show-dead-letter.usecase';
import { ShowSagaUseCase } from './usecases/show-saga.usecase';
import { WebhookEndpointsAdminController } from './webhook-endpoints/webhook-endpoints.admin.controller';
import { WebhookEndpointsAdminUseCase } from './webhook-endpoints/webhook-endpoints-admin.usecase';

export interface AdminSettings {
  adminToken: string;
  kafka: KafkaConnection;
  /** KAFKA_NAMESPACE of the consumer groups whose lag is shown by default. */
  kafkaNamespace: string;
  /** The console's chart samples: how often (0: not on this instance) and how long they are kept. */
  opsSamples: { intervalMs: number; retentionMinutes: number };
  /** The SSRF rules a new webhook endpoint's URL is checked against. */
  outboundWebhooks: SsrfPolicy;
  /** Where customers reach the portal (PORTAL_PUBLIC_URL): what portal links lead to. */
  portalPublicUrl: string;
  /** The configured webhook sources (no secrets) and how many rejected deliveries are kept of each. */
  sources: AdminSources;
}

/**
 * /admin: the dead-letter API, backlog and lag, the consumer groups' breakers, parked keys, outbound webhook
 * endpoints and their customers, sagas, the sources and their rejected deliveries, scheduled jobs, consumer groups and
 * their owners, event trails, chart samples, and the operator console. Exports the lag probe for the ingress's `/metrics`.
 */
@Module({})
export class AdminModule {
  static forRoot(settings: AdminSettings): DynamicModule {
    return {
      module: AdminModule,
      controllers: [
        DeadLettersAdminController,
        OperationsAdminController,
        OperationsViewsAdminController,
        ChartsAdminController,
        BreakersAdminController,
        ParkedKeysAdminController,
        SagasAdminController,
        ConsoleController,
        WebhookEndpointsAdminController,
        CustomersAdminController,
        SourcesAdminController,
        TokensAdminController,
      ],
      providers: [
        accessTokensProvider(settings.adminToken),
        { provide: ADMIN_KAFKA_BROKERS, useValue: settings.kafka },
        { provide: ADMIN_KAFKA_NAMESPACE, useValue: settings.kafkaNamespace },
        AccessGuard,
        TokensAdminUseCase,
        AdminKafka,
        ListDeadLettersUseCase,
        ShowDeadLetterUseCase,
        ChangeDeadLettersUseCase,
        GetOperationsUseCase,
        ListBreakersUseCase,
        ListJobsUseCase,
        ListConsumerGroupsUseCase,
        GetEventTrailUseCase,
        ConsumerLagProbe,
        { provide: OPS_SAMPLE_SETTINGS, useValue: settings.opsSamples },
        OpsSamplesService,
        GetChartsUseCase,
        { provide: SsrfGuard, useValue: new SsrfGuard(settings.outboundWebhooks) },
        WebhookEndpointsAdminUseCase,
        { provide: PORTAL_PUBLIC_URL, useValue: settings.portalPublicUrl },
        CustomersAdminUseCase,
        ListSagasUseCase,
        ShowSagaUseCase,
        RetrySagaUseCase,
        CancelSagaUseCase,
        ParkedKeysUseCase,
        { provide: ADMIN_SOURCES, useValue: settings.sources },
        ListSourcesUseCase,
      ],
      exports: [ConsumerLagProbe],
    };
  }
}
