import { SsrfGuard, SsrfPolicy } from '@app/ssrf-guard';
import { DynamicModule, Module } from '@nestjs/common';
import { ADMIN_KAFKA_BROKERS, AdminKafka } from './admin-kafka';
import { AdminToken, AdminTokenGuard } from './admin-token.guard';
import { ConsoleController } from './console.controller';
import { DeadLettersAdminController } from './dead-letters.admin.controller';
import { OperationsAdminController } from './operations.admin.controller';
import { ChangeDeadLettersUseCase } from './usecases/change-dead-letters.usecase';
import { ADMIN_KAFKA_NAMESPACE, GetOperationsUseCase } from './usecases/get-operations.usecase';
import { ListDeadLettersUseCase } from './usecases/list-dead-letters.usecase';
import { ShowDeadLetterUseCase } from './usecases/show-dead-letter.usecase';
import { WebhookEndpointsAdminController } from './webhook-endpoints/webhook-endpoints.admin.controller';
import { WebhookEndpointsAdminUseCase } from './webhook-endpoints/webhook-endpoints-admin.usecase';

export interface AdminSettings {
  adminToken: string;
  kafkaBrokers: string[];
  /** KAFKA_NAMESPACE of the consumer groups whose lag is shown by default. */
  kafkaNamespace: string;
  /** The SSRF rules a new webhook endpoint's URL is checked against. */
  outboundWebhooks: SsrfPolicy;
}

/** /admin: the dead-letter API, backlog and lag, outbound webhook endpoints, and the operator console. */
@Module({})
export class AdminModule {
  static forRoot(settings: AdminSettings): DynamicModule {
    return {
      module: AdminModule,
      controllers: [
        DeadLettersAdminController,
        OperationsAdminController,
        ConsoleController,
        WebhookEndpointsAdminController,
      ],
      providers: [
        { provide: AdminToken, useValue: new AdminToken(settings.adminToken) },
        { provide: ADMIN_KAFKA_BROKERS, useValue: settings.kafkaBrokers },
        { provide: ADMIN_KAFKA_NAMESPACE, useValue: settings.kafkaNamespace },
        AdminTokenGuard,
        AdminKafka,
        ListDeadLettersUseCase,
        ShowDeadLetterUseCase,
        ChangeDeadLettersUseCase,
        GetOperationsUseCase,
        { provide: SsrfGuard, useValue: new SsrfGuard(settings.outboundWebhooks) },
        WebhookEndpointsAdminUseCase,
      ],
    };
  }
}
