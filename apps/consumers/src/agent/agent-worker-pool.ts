import {
  AGENT_DEAD_LETTER_BATCH,
  ClaimedAgentTask,
  agentDeadTasks,
  expireAgentTaskLeasesOfGoneOwners,
} from '@app/agent-tasks';
import { LOGGER } from '@app/logger';
import { errorMessage } from '@app/consumer-runtime';
import { LeaseOwnerSession, TaskDeadLetters, TaskExecutor, watchGoneOwners } from '@app/tasks';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { hostname } from 'node:os';
import { Partitioners, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { ConsumerServiceDeps } from '../consumer-service.deps';
import { AgentWorker } from './agent-worker';
import { AgentMetrics } from './agent.metrics';
import { ClaimScope, ModelBreaker } from './model-breaker';
import { ModelClient } from './model.client';
import { AgentEnv } from './agent.env';

/** Claim rounds in flight at once per process (the breaker's probe is granted to one slot at a time either way). */
const AGENT_CLAIM_CONCURRENCY = 4;

/** A claimed task with what the breaker let its slot claim. */
interface AgentClaim {
  id: string;
  task: ClaimedAgentTask;
  scope: ClaimScope;
}

/**
 * The agent's tasks on the task executor: AGENT_WORKERS slots in this process, each working one task at a time,
 * claiming when a slot frees and every AGENT_POLL_INTERVAL_MS when idle, within what the model's breaker (shared by
 * the slots) lets them claim. Its leases are held as every task's are (LeaseOwnerSession): a process that dies leaves
 * its tasks to the others at once. Dead tasks go to `agent.dlt` as soon as one dies, and every AGENT_POLL_INTERVAL_MS
 * those still to be dead-lettered (e.g. after a crash between `dead` and the broker's ack). Stopping hands the tasks
 * in hand back.
 */
@Injectable()
export class AgentWorkerPool implements OnApplicationBootstrap, OnApplicationShutdown {
  private executor?: TaskExecutor<AgentClaim>;
  private producer?: Producer;
  private breaker?: ModelBreaker;
  private deadLetterSweep?: { soon(): void; stop(): Promise<void> };
  private session?: LeaseOwnerSession;
  private stopWatching?: () => void;

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
    const deadLetterSweep = (this.deadLetterSweep = deadLetters.sweep(config.AGENT_POLL_INTERVAL_MS));
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
      deadLetters: deadLetterSweep,
      logger: this.logger,
      leaseOwner: () => this.session?.leaseOwner ?? null,
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
    const workerPrefix = `${hostname()}/${process.pid}`;
    this.executor = new TaskExecutor<AgentClaim>({
      slots: config.AGENT_WORKERS,
      pollIntervalMs: config.AGENT_POLL_INTERVAL_MS,
      // A slot that frees while a claim is in flight claims at once, as its own loop would.
      claimConcurrency: AGENT_CLAIM_CONCURRENCY,
      claim: async ({ slots }) => {
        const claims = await worker.claim(slots.map((slot) => `${workerPrefix}/${slot}`));
        return claims.map(({ task, scope }) => ({ id: task.id, task, scope }));
      },
      run: (claim, stopping) => worker.run(claim.task, claim.scope, stopping),
      failed: (error, claim) =>
        this.logger.error(
          { group, workerId: claim?.task.claimedBy, eventId: claim?.task.eventId, err: errorMessage(error) },
          claim ? 'agent task attempt failed unexpectedly; its lease will run out' : 'could not claim agent tasks',
        ),
    });
    const executor = this.executor;
    this.session = new LeaseOwnerSession(
      {
        url: config.DATABASE_URL,
        applicationName: 'hookrail-agent-workers',
        group,
        lost: () => executor.abandon(),
      },
      this.logger,
    );
    await this.session.start();
    this.stopWatching = watchGoneOwners(
      group,
      () => expireAgentTaskLeasesOfGoneOwners(dataSource),
      () => executor.wake(),
      this.logger,
    );
    executor.start();
    this.logger.info(
      { group, workers: config.AGENT_WORKERS, leaseMs: config.AGENT_LEASE_MS, model: this.model.model },
      'agent workers running',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopWatching?.();
    await this.executor?.stop();
    // The session (this process's lease-owner lock) ends after the tasks in hand went back, so that no other process
    // takes them over while they are still being handed back.
    await this.session?.close();
    await this.deadLetterSweep?.stop();
    await this.breaker?.stop();
    await this.producer?.disconnect();
  }
}
