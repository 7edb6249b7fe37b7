import { Database } from '@app/db';
import { JobSchedule } from '@app/jobs';
import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { RelayEnv } from '../config/relay.env';
import { OUTBOX_RETENTION_JOB, pruneOutbox } from './outbox-retention';

/** Runs the outbox retention job on a schedule in every relay; the job's lock lets one run at a time. */
@Injectable()
export class OutboxRetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly schedule: JobSchedule;

  constructor(
    private readonly config: RelayEnv,
    private readonly database: Database,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.schedule = new JobSchedule(config.OUTBOX_RETENTION_INTERVAL_MS, () => this.runOnce());
  }

  onApplicationBootstrap(): void {
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }

  private async runOnce(): Promise<void> {
    const job = OUTBOX_RETENTION_JOB;
    try {
      const dataSource = await this.database.connection();
      const result = await pruneOutbox(dataSource, { retentionSeconds: this.config.OUTBOX_RETENTION_SECONDS, batchSize: this.config.OUTBOX_RETENTION_BATCH });
      if (result.ran) this.logger.info({ job, deleted: result.affected }, 'outbox retention ran');
      else this.logger.debug({ job }, 'outbox retention skipped: another relay runs it');
    } catch (error) {
      this.logger.error({ job, err: error instanceof Error ? error.message : String(error) }, 'outbox retention failed');
    }
  }
}
