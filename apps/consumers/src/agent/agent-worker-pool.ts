import { LOGGER } from '@app/logger';
import { TaskDeadLetters } from '@app/tasks';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Partitioners, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { AGENT_DEAD_LETTER_BATCH, agentDeadTasks } from './agent-dead-letters';
import { AgentWorker } from './agent-worker';
import { AgentMetrics } from './agent.metrics';
import { ModelBreaker } from './model-breaker';
import { ModelClient } from './model.client';
import { AgentEnv } from './agent.env';

/**
 * AGENT_WORKERS loops in this process, each claiming and working one task at a time, polling every
 * AGENT_POLL_INTERVAL_MS when idle, within what the model's breaker (shared by the loops) lets them claim. The first
 * loop also flushes dead tasks still to be dead-lettered (e.g. after a crash between `dead` and the broker's ack).
 * Stopping hands the tasks in hand back.
 */
@Injectable()
export class AgentWorkerPool implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly stopping = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private producer?: Producer;
  private breaker?: ModelBreaker;

  constructor(
    private readonly deps: ConsumerServiceDeps<AgentEnv>,
    private readonly model: ModelClient,
    private readonly metrics: AgentMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { config, dataSource, kafka, group, dltTopic } = this.deps;
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await this.producer.connect();
    const deadLetters = new TaskDeadLetters({
      group,
      dltTopic,
      producer: this.producer,
      dataSource,
      metrics: this.deps.metrics,
      logger: this.logger,
      rows: agentDeadTasks,
      batch: AGENT_DEAD_LETTER_BATCH,
    });
    const breaker = new ModelBreaker({
      group,
      settings: {
        failureThreshold: config.CONSUMER_BREAKER_FAILURES,
        probeIntervalMs: config.CONSUMER_BREAKER_PROBE_MS,
        maxProbeIntervalMs: config.CONSUMER_BREAKER_PROBE_MAX_MS,
      },
      dataSource,
      metrics: this.deps.metrics,
      logger: this.logger,
      slots: config.AGENT_WORKERS,
    });
    this.breaker = breaker;
    const worker = new AgentWorker({
      group,
      dataSource,
      model: this.model,
      breaker,
      metrics: this.metrics,
      deadLetters,
      logger: this.logger,
      settings: {
        leaseMs: config.AGENT_LEASE_MS,
        ceilingMs: config.CONSUMER_RETRY_CEILING_MS,
        retry: {
          maxAttempts: config.AGENT_MAX_ATTEMPTS,
          baseDelayMs: config.AGENT_RETRY_BASE_MS,
          maxDelayMs: config.AGENT_RETRY_MAX_MS,
        },
      },
    });
    for (let slot = 0; slot < config.AGENT_WORKERS; slot++) {
      const workerId = `${hostname()}/${process.pid}/${slot}`;
      this.loops.push(this.loop(worker, breaker, workerId, slot === 0 ? deadLetters : undefined));
    }
    this.logger.info(
      { group, workers: config.AGENT_WORKERS, leaseMs: config.AGENT_LEASE_MS, model: this.model.model },
      'agent workers running',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.loops);
    await this.breaker?.stop();
    await this.producer?.disconnect();
  }

  private async loop(
    worker: AgentWorker,
    breaker: ModelBreaker,
    workerId: string,
    deadLetters?: TaskDeadLetters,
  ): Promise<void> {
    const { signal } = this.stopping;
    const idleMs = this.deps.config.AGENT_POLL_INTERVAL_MS;
    while (!signal.aborted) {
      let worked = false;
      try {
        if (deadLetters) await deadLetters.flush();
        worked = await worker.runOnce(workerId, signal, breaker.claimScope());
      } catch (error) {
        this.logger.error(
          { group: this.deps.group, workerId, err: (error as Error).message },
          'agent worker iteration failed',
        );
      }
      if (!worked) await sleep(idleMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
