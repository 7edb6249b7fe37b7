import { LoggerModule } from '@app/logger';
import { DynamicModule, Module } from '@nestjs/common';
import { Logger } from 'pino';
import { RelayEnv } from './config/relay.env';
import { RelayPool } from './db/relay-pool';
import { OutboxRelayService } from './drain/outbox-relay.service';
import { RelayMetricsService } from './metrics/relay-metrics.service';
import { RelayMetrics } from './metrics/relay.metrics';
import { OutboxRetentionService } from './retention/outbox-retention.service';

@Module({})
export class RelayModule {
  static forRoot(config: RelayEnv, logger: Logger, metrics = new RelayMetrics()): DynamicModule {
    return {
      module: RelayModule,
      imports: [LoggerModule.forRoot(logger)],
      providers: [
        { provide: RelayEnv, useValue: config },
        RelayPool,
        { provide: RelayMetrics, useValue: metrics },
        OutboxRelayService,
        OutboxRetentionService,
        RelayMetricsService,
      ],
    };
  }
}
