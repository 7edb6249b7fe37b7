import { LoggerModule } from '@app/logger';
import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { Logger } from 'pino';
import { ConsumerServiceDeps } from './consumer-service.deps';

@Global()
@Module({})
class ConsumerServiceDepsModule {
  static forRoot(deps: ConsumerServiceDeps): DynamicModule {
    return {
      module: ConsumerServiceDepsModule,
      providers: [{ provide: ConsumerServiceDeps, useValue: deps }],
      exports: [ConsumerServiceDeps],
    };
  }
}

/** One consumer service's Nest application: the shared logger and service deps plus the service's own module. */
@Module({})
export class ConsumersModule {
  static forService(service: Type<unknown>, logger: Logger, deps?: ConsumerServiceDeps): DynamicModule {
    const shared = deps ? [ConsumerServiceDepsModule.forRoot(deps)] : [];
    return { module: ConsumersModule, imports: [LoggerModule.forRoot(logger), ...shared, service] };
  }
}
