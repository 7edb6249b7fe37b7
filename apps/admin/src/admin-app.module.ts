import { DatabaseModule } from '@app/db';
import { HealthController } from '@app/http';
import { LoggerModule } from '@app/logger';
import { ssrfPolicyOf } from '@app/webhooks';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Logger } from 'pino';
import { ADMIN_ENTITIES } from './admin.entities';
import { AdminModule } from './admin.module';
import { CatalogController } from './catalog/catalog.controller';
import { EventCatalog } from './catalog/event-catalog';
import { AdminEnv } from './config/admin.env';
import { AdminProblemFilter } from './http/admin-problem.filter';
import { AdminMetrics } from './metrics/admin.metrics';
import { MetricsController } from './metrics/metrics.controller';
import { OperationsMetrics } from './metrics/operations.metrics';
import { SourceSummary } from './sources/source-summaries';

/** The operator plane's process: `/admin`, the console, `/catalog`, `/healthz`, `/readyz` and `/metrics`. */
@Module({})
export class AdminAppModule {
  static forRoot(config: AdminEnv, logger: Logger, sources: SourceSummary[], catalog: EventCatalog): DynamicModule {
    return {
      module: AdminAppModule,
      imports: [
        LoggerModule.forRoot(logger),
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          applicationName: 'hookrail-admin',
          poolSize: config.DATABASE_POOL_SIZE,
          minPoolSize: 1,
          entities: ADMIN_ENTITIES,
        }),
        AdminModule.forRoot({
          adminToken: config.ADMIN_TOKEN,
          kafka: config,
          kafkaNamespace: config.KAFKA_NAMESPACE,
          opsSamples: {
            intervalMs: config.OPS_SAMPLE_INTERVAL_MS,
            retentionMinutes: config.OPS_SAMPLE_RETENTION_MINUTES,
          },
          outboundWebhooks: ssrfPolicyOf(config),
          portalPublicUrl: config.PORTAL_PUBLIC_URL,
          sources: { sources, keptPerSource: config.REJECTIONS_KEPT_PER_SOURCE },
        }),
      ],
      controllers: [HealthController, MetricsController, CatalogController],
      providers: [
        { provide: AdminEnv, useValue: config },
        { provide: EventCatalog, useValue: catalog },
        { provide: APP_FILTER, useClass: AdminProblemFilter },
        AdminMetrics,
        OperationsMetrics,
      ],
    };
  }
}
