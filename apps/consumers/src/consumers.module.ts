import { DatabaseModule } from '@app/db';
import { LoggerModule } from '@app/logger';
import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { ConsumersEnv } from './config/consumers.env';

@Module({})
export class ConsumersModule {
  static forRoot(config: ConsumersEnv, logger: Logger): DynamicModule {
    return {
      module: ConsumersModule,
      imports: [LoggerModule.forRoot(logger), DatabaseModule.forRoot({ url: config.DATABASE_URL, applicationName: 'hookrail-consumers', poolSize: 4 })],
    };
  }
}
