import { errorMessage } from '@app/consumer-runtime';
import { connect, poolQuery } from '@app/db';
import { scheduleJob } from '@app/jobs';
import { LOGGER } from '@app/logger';
import { OutboxNotifier } from '@app/outbox';
import { GuardedHttpClient, SsrfGuard } from '@app/ssrf-guard';
import { LeaseOwnerSession, TaskDeadLetters, watchGoneOwners } from '@app/tasks';
import {
  AttemptOutcome,
  WEBHOOK_DEAD_LETTER_BATCH,
  claimDeliveries,
  expireLeasesOfGoneOwners,
  recordOutcomes,
  releaseDeliveries,
  ssrfExceptions,
  ssrfPolicyOf,
  webhookDeadDeliveries,
} from '@app/webhooks';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Partitioners, Producer } from 'kafkajs';
import { hostname } from 'node:os';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ConsumerServiceDeps } from '../../consumer-service.deps';
import { onDeliveriesCommitted } from '../fan-out/deliveries-written';
import { pruneWebhookDeliveries, WEBHOOK_DELIVERIES_RETENTION_JOB } from '../retention/webhook-deliveries-retention';
import { WebhookMetrics } from '../webhook.metrics';
import { DeliveryAttempt } from './delivery-attempt';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { parseDuration, RetrySchedule } from './retry-schedule';
import { CompletionWriter } from './completion-writer';
import { WebhookSigner } from './webhook-signer';
import { WebhookDeliveryEnv } from '../config/webhook-delivery.env';

const DEAD_LETTER_SWEEP_MS = 5_000;
/** The channel that tells delivery workers in every process that new deliveries were committed. */
const DELIVERIES_CHANNEL = 'hookrail_webhook_deliveries';

/**
 * Everything of the `webhooks` group besides its Kafka consumer: the wake-up after its commits (in this process and,
 * by NOTIFY, in others), and, unless OUTBOUND_WEBHOOKS_WORKERS is 0, the delivery workers on a small pool of their
 * own connections: their session (NOTIFY, lease owner), the dispatcher, the completion writer, the takeover of
 * deliveries whose owner is gone, the dead letters of failed deliveries, the retention job and the metrics.
 */
@Injectable()
export class WebhookWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly closers: Array<() => Promise<unknown> | unknown> = [];

  constructor(
    private readonly deps: ConsumerServiceDeps<WebhookDeliveryEnv>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { config, dataSource, group } = this.deps;
    const policy = ssrfPolicyOf(config);
    const exceptions = ssrfExceptions(policy);
    if (exceptions)
      this.logger.warn({ group, ...exceptions }, 'outbound webhooks: exceptions to the SSRF rules are configured');
    else this.logger.info({ group }, 'outbound webhooks: SSRF rules without exceptions');
    const notifier = new OutboxNotifier(
      () => poolQuery(dataSource, `SELECT pg_notify($1, '')`, [DELIVERIES_CHANNEL]),
      (error) => this.logger.warn({ group, err: errorMessage(error) }, 'could not notify the webhook workers'),
    );
    let dispatcher: DeliveryDispatcher | undefined;
    this.closers.push(
      onDeliveriesCommitted(dataSource, () => {
        dispatcher?.wake();
        notifier.committed();
      }),
    );
    if (config.OUTBOUND_WEBHOOKS_WORKERS === 0) {
      this.logger.info({ group }, 'outbound webhooks: no delivery workers in this process');
      return;
    }
    const workersDb = await connect({
      url: config.DATABASE_URL,
      applicationName: 'hookrail-webhook-workers',
      poolSize: 4,
    });
    this.closers.unshift(() => workersDb.destroy());
    dispatcher = await this.startWorkers(workersDb, new SsrfGuard(policy));
  }

  async onApplicationShutdown(): Promise<void> {
    for (const close of this.closers) await close();
  }

  private async startWorkers(workersDb: DataSource, guard: SsrfGuard): Promise<DeliveryDispatcher> {
    const { config, group, kafka, dltTopic } = this.deps;
    const schedule = RetrySchedule.parse(
      config.OUTBOUND_WEBHOOKS_RETRY_SCHEDULE,
      config.OUTBOUND_WEBHOOKS_RETRY_JITTER,
    );
    const metrics = new WebhookMetrics(this.deps.metrics.registry, workersDb);
    const workerId = `${hostname()}/${process.pid}`;
    const producer: Producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    const deadLetters = new TaskDeadLetters({
      group,
      dltTopic,
      producer,
      dataSource: workersDb,
      metrics: this.deps.metrics,
      logger: this.logger,
      rows: webhookDeadDeliveries,
      batch: WEBHOOK_DEAD_LETTER_BATCH,
    });
    // The writer tells the dispatcher (made below) which attempts are recorded.
    let running: DeliveryDispatcher | undefined;
    const writer = new CompletionWriter(
      (outcomes) => this.record(workersDb, outcomes, metrics, deadLetterSweep),
      this.logger,
      (batch) => running?.recorded(batch),
    );
    const client = new GuardedHttpClient();
    const attempt = new DeliveryAttempt({
      guard,
      client,
      signer: new WebhookSigner(),
      schedule,
      limits: {
        connectTimeoutMs: config.OUTBOUND_WEBHOOKS_CONNECT_TIMEOUT_MS,
        timeoutMs: config.OUTBOUND_WEBHOOKS_TIMEOUT_MS,
        maxResponseBytes: config.OUTBOUND_WEBHOOKS_MAX_RESPONSE_BYTES,
      },
      worker: workerId,
      observe: (endpoint, seconds) => metrics.seconds.observe({ endpoint }, seconds),
    });
    let session: LeaseOwnerSession | undefined;
    const dispatcher = (running = new DeliveryDispatcher({
      claim: (request) => claimDeliveries(workersDb, request),
      attempt: (delivery, signal) => attempt.run(delivery, signal),
      completed: (outcome) => writer.add(outcome),
      release: (deliveries) => releaseDeliveries(workersDb, deliveries),
      leaseExpired: (delivery) => {
        metrics.leaseExpiries.inc();
        this.logger.warn(
          { group, eventId: delivery.eventId, deliveryId: delivery.id, previousWorker: delivery.priorClaimedBy },
          'webhook delivery taken over from another worker (its process was gone, or its lease ran out); sent again',
        );
      },
      leaseOwner: () => session?.leaseOwner ?? null,
      logger: this.logger,
      settings: {
        workerId,
        workers: config.OUTBOUND_WEBHOOKS_WORKERS,
        leaseMs: config.OUTBOUND_WEBHOOKS_LEASE_MS,
        endpointConcurrency: config.OUTBOUND_WEBHOOKS_ENDPOINT_CONCURRENCY,
        pollIntervalMs: config.OUTBOUND_WEBHOOKS_POLL_INTERVAL_MS,
      },
    }));
    session = new LeaseOwnerSession(
      {
        url: config.DATABASE_URL,
        applicationName: 'hookrail-webhook-listener',
        group,
        channel: DELIVERIES_CHANNEL,
        notified: () => dispatcher.wake(),
        lost: () => dispatcher.abandon(),
      },
      this.logger,
    );
    await session.start();
    const stopWatching = watchGoneOwners(
      group,
      () => expireLeasesOfGoneOwners(workersDb),
      () => dispatcher.wake(),
      this.logger,
    );
    const retention = scheduleJob(
      WEBHOOK_DELIVERIES_RETENTION_JOB,
      config.OUTBOUND_WEBHOOKS_RETENTION_INTERVAL_MS,
      (schedule) =>
        pruneWebhookDeliveries(
          workersDb,
          { retentionSeconds: config.OUTBOUND_WEBHOOKS_RETENTION_DAYS * 86_400 },
          schedule,
        ),
      this.logger,
    );
    const deadLetterSweep = deadLetters.sweep(DEAD_LETTER_SWEEP_MS);
    dispatcher.start();
    retention.start();
    // The session (this process's lease-owner lock) ends after the deliveries in hand went back, so that no other
    // process takes them over while they are still being handed back.
    this.closers.unshift(
      stopWatching,
      () => deadLetterSweep.stop(),
      () => retention.stop(),
      () => dispatcher.stop(),
      () => writer.close(),
      () => session.close(),
      () => client.close(),
      () => producer.disconnect(),
    );
    this.logger.info(
      {
        group,
        workers: config.OUTBOUND_WEBHOOKS_WORKERS,
        endpointConcurrency: config.OUTBOUND_WEBHOOKS_ENDPOINT_CONCURRENCY,
        attempts: schedule.attempts,
        leaseMs: config.OUTBOUND_WEBHOOKS_LEASE_MS,
      },
      'webhook delivery workers running',
    );
    return dispatcher;
  }

  private async record(
    workersDb: DataSource,
    outcomes: AttemptOutcome[],
    metrics: WebhookMetrics,
    deadLetterSweep: { soon(): void },
  ): Promise<void> {
    const { group, config } = this.deps;
    const disableAfterMs = parseDuration(config.OUTBOUND_WEBHOOKS_DISABLE_AFTER)!;
    const effects = await workersDb.transaction((manager) =>
      recordOutcomes(manager, outcomes, { group, disableAfterMs }),
    );
    for (const { outcome, state } of effects.recorded) {
      metrics.recorded(outcome.endpointId, state);
      if (state === 'fenced')
        this.logger.warn(
          { group, eventId: outcome.eventId, deliveryId: outcome.deliveryId },
          'stale webhook worker: the delivery was claimed by another worker meanwhile; outcome logged only',
        );
      else if (state === 'failed')
        this.logger.warn(
          {
            group,
            eventId: outcome.eventId,
            deliveryId: outcome.deliveryId,
            endpointId: outcome.endpointId,
            err: outcome.error,
          },
          'webhook delivery failed after its last attempt',
        );
    }
    for (const { endpointId, reason } of effects.disabled)
      this.logger.warn(
        { group, endpointId, reason },
        'webhook endpoint disabled; its deliveries wait until it is enabled',
      );
    if (effects.recorded.some(({ state }) => state === 'failed')) deadLetterSweep.soon();
  }
}
