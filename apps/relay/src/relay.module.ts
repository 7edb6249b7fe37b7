import { DatabaseModule } from '@app/db';
import { LoggerModule } from '@app/logger';
import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { RelayEnv } from './config/relay.env';

@Module({})
export class RelayModule {
  static forRoot(config: RelayEnv, logger: Logger): DynamicModule {
    return {
      module: RelayModule,
      imports: [LoggerModule.forRoot(logger), DatabaseModule.forRoot({ url: config.DATABASE_URL, applicationName: 'hookrail-relay', poolSize: 4 })],
    };
  }
}
