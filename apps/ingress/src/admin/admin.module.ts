import { DynamicModule, Module } from '@nestjs/common';
import { ADMIN_KAFKA_BROKERS, AdminKafka } from './admin-kafka';
import { AdminToken, AdminTokenGuard } from './admin-token.guard';
import { ConsoleController } from './console.controller';
import { DeadLettersAdminController } from './dead-letters.admin.controller';
import { OperationsAdminController } from './operations.admin.controller';
import { SagasAdminController } from './sagas.admin.controller';
import { ChangeDeadLettersUseCase } from './usecases/change-dead-letters.usecase';
import { ADMIN_KAFKA_NAMESPACE, GetOperationsUseCase } from './usecases/get-operations.usecase';
import { ListDeadLettersUseCase } from './usecases/list-dead-letters.usecase';
import { ListSagasUseCase } from './usecases/list-sagas.usecase';
import { RetrySagaUseCase } from './usecases/retry-saga.usecase';
import { ShowDeadLetterUseCase } from './usecases/show-dead-letter.usecase';
import { ShowSagaUseCase } from './usecases/show-saga.usecase';

export interface AdminSettings {
  adminToken: string;
  kafkaBrokers: string[];
  /** KAFKA_NAMESPACE of the consumer groups whose lag is shown by default. */
  kafkaNamespace: string;
}

/** /admin: the dead-letter API, backlog and lag, sagas, and the operator console. */
@Module({})
export class AdminModule {
  static forRoot(settings: AdminSettings): DynamicModule {
    return {
      module: AdminModule,
      controllers: [DeadLettersAdminController, OperationsAdminController, SagasAdminController, ConsoleController],
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
        ListSagasUseCase,
        ShowSagaUseCase,
        RetrySagaUseCase,
      ],
    };
  }
}
