import { JobSchedule, scheduleJob } from '@app/jobs';
import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { RelayEnv } from '../config/relay.env';
import { RelayPool } from '../db/relay-pool';
import { OUTBOX_RETENTION_JOB, pruneOutbox } from './outbox-retention';

/** Runs the outbox retention job on a schedule in every relay; the job's lock lets one run at a time. */
@Injectable()
export class OutboxRetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly schedule: JobSchedule;

  constructor(config: RelayEnv, database: RelayPool, @Inject(LOGGER) logger: Logger) {
    this.schedule = scheduleJob(
      OUTBOX_RETENTION_JOB,
      config.OUTBOX_RETENTION_INTERVAL_MS,
      (schedule) =>
        pruneOutbox(
          database.pool,
          {
            retentionSeconds: config.OUTBOX_RETENTION_SECONDS,
            batchSize: config.OUTBOX_RETENTION_BATCH,
          },
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
