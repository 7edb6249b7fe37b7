import { Database } from '@app/db';
import { JobSchedule, scheduleJob } from '@app/jobs';
import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { IngressEnv } from '../config/ingress.env';
import { INBOUND_EVENTS_RETENTION_JOB, pruneInboundEvents } from './inbound-events-retention';

/** Runs the inbound-events retention job on a schedule in every ingress; the job's lock lets one run at a time. */
@Injectable()
export class InboundEventsRetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly schedule: JobSchedule;

  constructor(config: IngressEnv, database: Database, @Inject(LOGGER) logger: Logger) {
    this.schedule = scheduleJob(
      INBOUND_EVENTS_RETENTION_JOB,
      config.INBOUND_EVENTS_RETENTION_INTERVAL_MS,
      async (schedule) =>
        pruneInboundEvents(
          await database.connection(),
          { retentionSeconds: config.INBOUND_EVENTS_RETENTION_DAYS * 86_400 },
          schedule,
        ),
      logger,
    );
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }
}
