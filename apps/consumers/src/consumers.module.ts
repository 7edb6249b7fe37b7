import { LoggerModule } from '@app/logger';
import { DynamicModule, Module, Type } from '@nestjs/common';
import { Logger } from 'pino';

/** One consumer service's Nest application: the shared logger plus the service's own module. */
@Module({})
export class ConsumersModule {
  static forService(service: Type<unknown>, logger: Logger): DynamicModule {
    return { module: ConsumersModule, imports: [LoggerModule.forRoot(logger), service] };
  }
}
