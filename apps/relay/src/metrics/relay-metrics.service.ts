import { clientRows } from '@app/db';
import { JobMetrics } from '@app/jobs';
import { LOGGER } from '@app/logger';
import { OutboxMetrics } from '@app/outbox';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { RelayEnv } from '../config/relay.env';
import { RelayPool } from '../db/relay-pool';
import { MetricsServer } from './metrics.server';
import { RelayMetrics } from './relay.metrics';

/**
 * Serves the relay's metrics on METRICS_PORT (unless 0); the backlog gauges query the outbox at scrape time, and the
 * job gauges job_schedules (every scheduled job, the relay's and the other apps').
 */
@Injectable()
export class RelayMetricsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly server: MetricsServer;

  constructor(
    private readonly config: RelayEnv,
    metrics: RelayMetrics,
    database: RelayPool,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.server = new MetricsServer(metrics.registry);
    const rows = clientRows(database.pool);
    new OutboxMetrics(metrics.registry, async () => rows);
    new JobMetrics(metrics.registry, async () => rows);
  }

  /**
   * A second relay on the same host finds the port taken: it runs on without an endpoint of its own (and says so)
   * rather than refusing to start, since several relays per host is a supported way to run.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.METRICS_PORT === 0) return;
    try {
      const port = await this.server.listen(this.config.METRICS_PORT, this.config.METRICS_HOST);
      this.logger.info({ port }, 'metrics on GET /metrics');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      this.logger.warn(
        { port: this.config.METRICS_PORT },
        'metrics port already in use; this relay serves no /metrics (set METRICS_PORT per instance)',
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.server.close();
  }
}
