import { JobSchedule, scheduleJob } from '@app/jobs';
import { LOGGER } from '@app/logger';
import { expireSagaDeadlines, SAGA_DEADLINES_JOB } from '@app/saga';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Logger } from 'pino';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { FulfilmentSaga } from './fulfilment-saga.service';
import { FulfilmentEnv } from './fulfilment.env';

/**
 * The saga deadline job (`saga-deadlines`) in every process that runs the fulfilment group, every
 * SAGA_DEADLINES_INTERVAL_MS; one process at a time runs it (advisory lock), with a heartbeat in `job_heartbeats`.
 */
@Injectable()
export class SagaDeadlinesSchedule implements OnApplicationBootstrap, OnApplicationShutdown {
  private schedule?: JobSchedule;

  constructor(
    private readonly deps: ConsumerServiceDeps<FulfilmentEnv>,
    private readonly saga: FulfilmentSaga,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    const { dataSource, config } = this.deps;
    this.schedule = scheduleJob(
      SAGA_DEADLINES_JOB,
      config.SAGA_DEADLINES_INTERVAL_MS,
      (schedule) =>
        expireSagaDeadlines(
          dataSource,
          this.saga.coordinator,
          { onCommitted: (transitions) => this.saga.deadlineTransitionsCommitted(transitions) },
          schedule,
        ),
      this.logger,
      { quietWhenIdle: true },
    );
    this.schedule.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.schedule?.stop();
  }
}
