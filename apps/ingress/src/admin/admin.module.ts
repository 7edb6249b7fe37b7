import { DynamicModule, Module } from '@nestjs/common';
import { ADMIN_KAFKA_BROKERS, AdminKafka } from './admin-kafka';
import { AdminToken, AdminTokenGuard } from './admin-token.guard';
import { BreakersAdminController } from './breakers.admin.controller';
import { ConsoleController } from './console.controller';
import { DeadLettersAdminController } from './dead-letters.admin.controller';
import { OperationsAdminController } from './operations.admin.controller';
import { ParkedKeysAdminController } from './parked-keys.admin.controller';
import { ChangeDeadLettersUseCase } from './usecases/change-dead-letters.usecase';
import { ListBreakersUseCase } from './usecases/list-breakers.usecase';
import { ADMIN_KAFKA_NAMESPACE, GetOperationsUseCase } from './usecases/get-operations.usecase';
import { ListDeadLettersUseCase } from './usecases/list-dead-letters.usecase';
import { ParkedKeysUseCase } from './usecases/parked-keys.usecase';
import { ShowDeadLetterUseCase } from './usecases/show-dead-letter.usecase';

export interface AdminSettings {
  adminToken: string;
  kafkaBrokers: string[];
  /** KAFKA_NAMESPACE of the consumer groups whose lag is shown by default. */
  kafkaNamespace: string;
}

/** /admin: the dead-letter API, parked keys, backlog and lag, the consumer groups' breakers, and the operator console. */
@Module({})
export class AdminModule {
  static forRoot(settings: AdminSettings): DynamicModule {
    return {
      module: AdminModule,
      controllers: [
        DeadLettersAdminController,
        OperationsAdminController,
        BreakersAdminController,
        ParkedKeysAdminController,
        ConsoleController,
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
        ListBreakersUseCase,
        ParkedKeysUseCase,
      ],
    };
  }
}
