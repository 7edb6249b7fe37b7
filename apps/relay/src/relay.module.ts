import { DatabaseModule } from '@app/db';
import { LoggerModule } from '@app/logger';
import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { RelayEnv } from './config/relay.env';
import { OutboxRelayService } from './drain/outbox-relay.service';
import { RelayMetricsService } from './metrics/relay-metrics.service';
import { RelayMetrics } from './metrics/relay.metrics';
import { RELAY_ENTITIES } from './relay.entities';
import { OutboxRetentionService } from './retention/outbox-retention.service';

@Module({})
export class RelayModule {
  static forRoot(config: RelayEnv, logger: Logger): DynamicModule {
    return {
      module: RelayModule,
      imports: [
        LoggerModule.forRoot(logger),
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          applicationName: 'hookrail-relay',
          poolSize: 4,
          entities: RELAY_ENTITIES,
        }),
      ],
      providers: [
        { provide: RelayEnv, useValue: config },
        { provide: RelayMetrics, useValue: new RelayMetrics() },
        OutboxRelayService,
        OutboxRetentionService,
        RelayMetricsService,
      ],
    };
  }
}
