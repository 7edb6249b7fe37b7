import { Closable, waitForDependencies } from '@app/config';
import {
  ConsumerGroupOwnersRepository,
  ConsumerLagMetrics,
  ConsumerLagReader,
  ConsumerMetrics,
  ConsumerServer,
  PROCESSED_EVENTS_RETENTION_JOB,
  pruneProcessedEvents,
  RethrowErrorsFilter,
  startMetricsServer,
} from '@app/consumer-runtime';
import { dltTopic, replayTopic } from '@app/contracts';
import { ParkedKeyMetrics } from '@app/dead-letters';
import { checkDatabase, connect, describeDatabase, managerRows } from '@app/db';
import { JobMetrics, scheduleJob } from '@app/jobs';
import { checkKafka, createKafka, describeKafka, LazyAdmin, prepareKafkaAccess } from '@app/kafka';
import { errorMessage, NestLogger } from '@app/logger';
import { notifyOutbox, OutboxMetrics, OutboxNotifier } from '@app/outbox';
import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'pino';
import { collectDefaultMetrics } from 'prom-client';
import { ConsumersConfig } from './config/load-consumers-config';
import { ConsumerServiceDeps } from './consumer-service.deps';
import { CONSUMER_SERVICES } from './consumer-services';
import { CONSUMERS_ENTITIES } from './consumers.entities';
import { ConsumersModule } from './consumers.module';
import { HISTORY_RETENTION_JOB, pruneHistory } from './retention/history-retention';

/** What the process starts besides the groups, and when it may be stopped gracefully. */
export interface ConsumersStartOptions {
  /** Called once Postgres and Kafka answer: from then on a stop waits for the start to finish, then stops it. */
  onDependencies?: () => void;
  /** Started after the groups and before /readyz says ready (the dead-letter store); stopped after them. */
  alsoStart?: () => Promise<Closable | undefined>;
}

/**
 * Starts one Nest microservice per configured group, each on a ConsumerServer (the runtime), sharing one database
 * pool, one metrics registry and one Kafka client. The returned handle stops them all (current messages finish).
 */
export async function startConsumers(
  config: ConsumersConfig,
  logger: Logger,
  options: ConsumersStartOptions = {},
): Promise<Closable & { groups: string[] }> {
  // The metrics port answers from the start: /readyz says what the process still waits for.
  const metrics = new ConsumerMetrics();
  collectDefaultMetrics({ register: metrics.registry });
  let waitingFor: string | undefined = 'its dependencies';
  const metricsServer =
    config.METRICS_PORT > 0
      ? await startMetricsServer(metrics.registry, config.METRICS_PORT, undefined, () => waitingFor).catch(
          (error: Error) =>
            void logger.warn(
              { err: error.message, port: config.METRICS_PORT },
              'metrics port unavailable; running without /metrics',
            ),
        )
      : undefined;
  const database = describeDatabase(config.DATABASE_URL);
  const brokers = describeKafka(config);
  try {
    await waitForDependencies(
      [
        { name: database, check: () => ((waitingFor = database), checkDatabase(config.DATABASE_URL)) },
        { name: brokers, check: () => ((waitingFor = brokers), checkKafka(config)) },
      ],
      logger,
    );
  } catch (error) {
    await metricsServer?.close();
    throw error;
  }
  options.onDependencies?.();
  waitingFor = 'its consumer groups to start';
  const dataSource = await connect({
    url: config.DATABASE_URL,
    applicationName: 'hookrail-consumers',
    poolSize: config.DATABASE_POOL_SIZE ?? 2 + 3 * config.CONSUMER_GROUPS.length,
    entities: CONSUMERS_ENTITIES,
  });
  // The groups that call providers (they apply records by key) commit their bookkeeping around each call on a pool of
  // its own that does not wait for the disk (see bookkeepingQuery).
  const keyed = config.CONSUMER_GROUPS.filter((group) => CONSUMER_SERVICES[group]?.concurrency === 'key');
  const bookkeeping =
    keyed.length > 0
      ? await connect({
          url: config.DATABASE_URL,
          applicationName: 'hookrail-consumers-bookkeeping',
          poolSize: Math.min(4 * keyed.length, 16),
          synchronousCommit: 'off',
        })
      : dataSource;
  // Shared truths every app reports, so that an alert does not need the process it is about: every job, the outbox
  // backlog (the relays'), every group's parked keys (this process's parking groups at 0 while none is parked).
  new JobMetrics(metrics.registry, async () => managerRows(dataSource.manager));
  new OutboxMetrics(metrics.registry, async () => managerRows(dataSource.manager));
  new ParkedKeyMetrics(
    metrics.registry,
    async () => dataSource,
    config.CONSUMER_KEY_PARKING === 'off'
      ? []
      : config.CONSUMER_GROUPS.filter((group) => CONSUMER_SERVICES[group]?.keyOrder === 'park'),
  );
  const kafka = createKafka('hookrail-consumers', config, logger);
  // Every group's lag, not only this process's: the lag alerts hold while a group's own process is down.
  const lagAdmin = new LazyAdmin(kafka);
  const lag = new ConsumerLagReader({
    admin: () => lagAdmin.get(),
    database: async () => managerRows(dataSource.manager),
    namespace: config.KAFKA_NAMESPACE,
    onError: (error) => logger.debug({ err: errorMessage(error) }, 'consumer lag unavailable'),
  });
  new ConsumerLagMetrics(metrics.registry, () => lag.every());
  const namespaced = (name: string) => `${config.KAFKA_NAMESPACE}${name}`;
  const apps: INestMicroservice[] = [];
  const groups: string[] = [];
  const afterDbCommit = faultInjection(config.HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS, logger);
  // One per process: services whose handlers write outbox rows (the saga's coordinator and participants) wake the
  // relays after their commits.
  const outboxNotifier = new OutboxNotifier(
    (lanes) => notifyOutbox(dataSource, lanes),
    (error) => logger.warn({ err: errorMessage(error) }, 'could not notify the relays; they poll'),
  );

  const services = config.CONSUMER_GROUPS.flatMap((group) => {
    const service = CONSUMER_SERVICES[group];
    if (!service) logger.warn({ group }, 'no service implements this group yet; skipped');
    return service
      ? [
          {
            group,
            service,
            topics: (service.topicsFrom?.(config) ?? service.topics).map(namespaced),
            dltTopic: namespaced(dltTopic(group)),
            replayTopic: namespaced(replayTopic(group)),
          },
        ]
      : [];
  });
  // Every group's topics exist and its principal may use them and the group, or the start stops with one line that
  // names what is missing (topics are created by `npm run topics:create`, or here with KAFKA_CREATE_TOPICS=true).
  await prepareKafkaAccess(kafka, config, {
    topics: services.flatMap(({ topics, dltTopic, replayTopic }) => [...topics, dltTopic, replayTopic]),
    groups: services.map(({ group }) => namespaced(group)),
    createWithPartitions: config.KAFKA_CREATE_TOPICS ? config.TOPIC_PARTITIONS : undefined,
  });

  // Who answers for each group's dead letters and alerts, where the console, the CLI and the alerts can read it.
  const owners = new ConsumerGroupOwnersRepository(managerRows(dataSource.manager));
  for (const { group, service } of services)
    await owners.register(
      group,
      service.owner,
      service.topicsFrom?.(config) ?? service.topics,
      service.concurrency ?? 'batch',
    );

  for (const { group, service, topics, ...names } of services) {
    const deps = new ConsumerServiceDeps(
      group,
      config,
      dataSource,
      kafka,
      metrics,
      names.dltTopic,
      outboxNotifier,
      bookkeeping,
    );
    const strategy = new ConsumerServer({
      group,
      groupId: namespaced(group),
      topics,
      ...names,
      kafka,
      dataSource,
      logger,
      metrics,
      maxBatchSize: Math.min(config.CONSUMER_BATCH_SIZE, service.maxBatchSize ?? Infinity),
      sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
      heartbeatIntervalMs: config.KAFKA_HEARTBEAT_INTERVAL_MS,
      rebalanceTimeoutMs: config.KAFKA_REBALANCE_TIMEOUT_MS,
      partitionsConsumedConcurrently: config.CONSUMER_PARTITION_CONCURRENCY,
      retryCeilingMs: service.retryCeilingMs ?? config.CONSUMER_RETRY_CEILING_MS,
      keyOrder: config.CONSUMER_KEY_PARKING === 'off' ? 'none' : (service.keyOrder ?? 'none'),
      concurrency: service.concurrency ?? 'batch',
      keyed: {
        perPartition: config.CONSUMER_KEY_CONCURRENCY,
        maxInFlight: config.CONSUMER_MAX_IN_FLIGHT,
      },
      unparkResendMs: config.CONSUMER_UNPARK_RESEND_MS,
      commitIntervalMs: config.CONSUMER_COMMIT_INTERVAL_MS,
      breaker: {
        failureThreshold: config.CONSUMER_BREAKER_FAILURES,
        probeIntervalMs: config.CONSUMER_BREAKER_PROBE_MS,
        maxProbeIntervalMs: config.CONSUMER_BREAKER_PROBE_MAX_MS,
      },
      afterDbCommit: (written) => {
        deps.committed(written);
        afterDbCommit?.();
      },
    });
    const app = await NestFactory.createMicroservice(ConsumersModule.forService(service.module, logger, deps), {
      strategy,
      logger: new NestLogger(logger),
    });
    app.useGlobalFilters(new RethrowErrorsFilter());
    await app.listen();
    apps.push(app);
    groups.push(group);
  }

  const retention = scheduleJob(
    PROCESSED_EVENTS_RETENTION_JOB,
    config.PROCESSED_EVENTS_RETENTION_INTERVAL_MS,
    (schedule) =>
      pruneProcessedEvents(dataSource, config.PROCESSED_EVENTS_RETENTION_DAYS * 86_400, undefined, schedule),
    logger,
  );
  retention.start();
  const historyRetention = scheduleJob(
    HISTORY_RETENTION_JOB,
    config.HISTORY_RETENTION_INTERVAL_MS,
    (schedule) => pruneHistory(dataSource, { retentionSeconds: config.HISTORY_RETENTION_DAYS * 86_400 }, schedule),
    logger,
  );
  historyRetention.start();
  const also = await options.alsoStart?.();
  waitingFor = undefined;

  return {
    groups,
    close: async () => {
      await Promise.all([retention.stop(), historyRetention.stop()]);
      await Promise.all(apps.map((app) => app.close()));
      await also?.close();
      await metricsServer?.close();
      await lagAdmin.close();
      if (bookkeeping !== dataSource) await bookkeeping.destroy();
      await dataSource.destroy();
    },
  };
}

function faultInjection(killAfterCommits: number, logger: Logger): (() => void) | undefined {
  if (killAfterCommits <= 0) return undefined;
  let commits = 0;
  return () => {
    if (++commits < killAfterCommits) return;
    logger.warn({ commits }, 'fault injection: killing the process between the database commit and the offset commit');
    process.kill(process.pid, 'SIGKILL');
  };
}
