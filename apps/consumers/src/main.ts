import 'reflect-metadata';
import { bootstrap, closeOnSignals, loadConfig } from '@app/config';
import { CONSUMER_GROUPS } from '@app/contracts';
import { DeadLetterStoreEnv, startDeadLetterStore } from '@app/dead-letters';
import { createLogger } from '@app/logger';
import { startTracing, TracingEnv } from '@app/tracing';
import { loadConsumersConfig } from './config/load-consumers-config';
import { startConsumers } from './consumers.app';

bootstrap('consumers', async () => {
  const config = loadConsumersConfig();
  const storeConfig = loadConfig(DeadLetterStoreEnv);
  const tracing = startTracing('consumers', loadConfig(TracingEnv));
  const logger = createLogger('consumers', config.LOG_LEVEL, config.LOG_FORMAT);
  // A stop while it still waits for Postgres or Kafka has nothing to finish; once they answer, it waits for the start
  // to end and then stops what started, gracefully (a Ctrl-C during start-up included).
  let dependenciesReady = false;
  const running = startConsumers(config, logger, {
    onDependencies: () => (dependenciesReady = true),
    // The dead-letter store indexes every group's DLT, not only this process's groups: all members of its Kafka
    // group then subscribe to the same topics.
    alsoStart: async () =>
      storeConfig.DEAD_LETTER_STORE
        ? startDeadLetterStore(
            {
              databaseUrl: config.DATABASE_URL,
              kafka: config,
              namespace: config.KAFKA_NAMESPACE,
              groups: CONSUMER_GROUPS,
              createTopics: config.KAFKA_CREATE_TOPICS,
              topicPartitions: config.TOPIC_PARTITIONS,
              retentionSeconds: storeConfig.DEAD_LETTER_RETENTION_DAYS * 86_400,
              retentionEveryMs: storeConfig.DEAD_LETTER_RETENTION_INTERVAL_MS,
            },
            logger,
          )
        : undefined,
  });
  closeOnSignals(
    {
      close: async () => {
        if (dependenciesReady) await (await running).close();
        await tracing.shutdown();
      },
    },
    (message) => logger.info(message),
    (done) => logger.flush(() => done()),
  );
  const consumers = await running;
  logger.info({ groups: consumers.groups, deadLetterStore: storeConfig.DEAD_LETTER_STORE }, 'consumers started');
});
