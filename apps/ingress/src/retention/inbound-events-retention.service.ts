import { Database } from '@app/db';
import { JobSchedule } from '@app/jobs';
import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { IngressEnv } from '../config/ingress.env';
import { INBOUND_EVENTS_RETENTION_JOB, pruneInboundEvents } from './inbound-events-retention';

/** Runs the inbound-events retention job on a schedule in every ingress; the job's lock lets one run at a time. */
@Injectable()
export class InboundEventsRetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly schedule: JobSchedule;

  constructor(
    private readonly config: IngressEnv,
    private readonly database: Database,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.schedule = new JobSchedule(config.INBOUND_EVENTS_RETENTION_INTERVAL_MS, () => this.runOnce());
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }

  private async runOnce(): Promise<void> {
    const job = INBOUND_EVENTS_RETENTION_JOB;
    try {
      const dataSource = await this.database.connection();
      const result = await pruneInboundEvents(dataSource, { retentionSeconds: this.config.INBOUND_EVENTS_RETENTION_DAYS * 86_400 });
      if (result.ran) this.logger.info({ job, deleted: result.affected }, 'inbound-events retention ran');
      else this.logger.debug({ job }, 'inbound-events retention skipped: another ingress runs it');
    } catch (error) {
      this.logger.error({ job, err: error instanceof Error ? error.message : String(error) }, 'inbound-events retention failed');
    }
  }
}
