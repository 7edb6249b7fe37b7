import { Database } from '@app/db';
import { JobSchedule, runExclusiveJob, scheduleJob } from '@app/jobs';
import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Logger } from 'pino';
import { ConsumerLagProbe } from '../lag/consumer-lag.probe';
import { sampleSlots } from './sample-slots';
import { CHART_SAMPLERS } from './samplers';

export const OPS_SAMPLES_JOB = 'ops-samples';
export const OPS_SAMPLE_SETTINGS = Symbol('OPS_SAMPLE_SETTINGS');

export interface OpsSampleSettings {
  intervalMs: number;
  retentionMinutes: number;
}

/**
 * Samples the console's charts on a schedule in every ingress (unless its interval is 0); the job's lock and due time
 * let one instance at a time sample each slot.
 */
@Injectable()
export class OpsSamplesService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly schedule?: JobSchedule;

  constructor(
    @Inject(OPS_SAMPLE_SETTINGS) settings: OpsSampleSettings,
    database: Database,
    lag: ConsumerLagProbe,
    @Inject(LOGGER) logger: Logger,
  ) {
    if (settings.intervalMs === 0) return;
    this.schedule = scheduleJob(
      OPS_SAMPLES_JOB,
      settings.intervalMs,
      async (schedule) =>
        runExclusiveJob(
          await database.connection(),
          OPS_SAMPLES_JOB,
          (manager) =>
            sampleSlots(manager, { ...settings, samplers: CHART_SAMPLERS, lag: () => lag.byGroup() }, logger),
          schedule,
        ),
      logger,
      { logRunsAt: 'debug' },
    );
  }

  onApplicationBootstrap(): void {
    this.schedule?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule?.stop();
  }
}
