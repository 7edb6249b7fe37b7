import { Database } from '@app/db';
import { LOGGER } from '@app/logger';
import { managerRows, OutboxRepository } from '@app/outbox';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { RelayEnv } from '../config/relay.env';
import { MetricsServer } from './metrics.server';
import { RelayMetrics } from './relay.metrics';

/** Serves the relay's metrics on METRICS_PORT (unless 0); the backlog gauges query the outbox at scrape time. */
@Injectable()
export class RelayMetricsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly server: MetricsServer;

  constructor(
    private readonly config: RelayEnv,
    private readonly metrics: RelayMetrics,
    private readonly database: Database,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.server = new MetricsServer(metrics.registry);
    metrics.readBacklogFrom(async () => new OutboxRepository(managerRows((await this.database.connection()).manager)).backlog());
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.METRICS_PORT === 0) return;
    const port = await this.server.listen(this.config.METRICS_PORT, this.config.METRICS_HOST);
    this.logger.info({ port }, 'metrics on GET /metrics');
  }

  async onModuleDestroy(): Promise<void> {
    await this.server.close();
  }
}
