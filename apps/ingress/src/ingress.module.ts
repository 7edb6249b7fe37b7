import { DatabaseModule } from '@app/db';
import { LoggerModule } from '@app/logger';
import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { IngressEnv } from './config/ingress.env';
import { HealthController } from './health/health.controller';

@Module({})
export class IngressModule {
  static forRoot(config: IngressEnv, logger: Logger): DynamicModule {
    return {
      module: IngressModule,
      imports: [LoggerModule.forRoot(logger), DatabaseModule.forRoot({ url: config.DATABASE_URL, applicationName: 'hookrail-ingress', poolSize: 20 })],
      controllers: [HealthController],
    };
  }
}
