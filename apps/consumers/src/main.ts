import 'reflect-metadata';
import { bootstrap, closeOnSignals, loadConfig } from '@app/config';
import { CONSUMER_GROUPS } from '@app/contracts';
import { DeadLetterStoreEnv, startDeadLetterStore } from '@app/dead-letters';
import { createLogger } from '@app/logger';
import { ConsumersEnv } from './config/consumers.env';
import { startConsumers } from './consumers.app';

bootstrap('consumers', async () => {
  const config = loadConfig(ConsumersEnv);
  const storeConfig = loadConfig(DeadLetterStoreEnv);
  const logger = createLogger('consumers', config.LOG_LEVEL, config.LOG_FORMAT);
  // Stopped while it still waits for Postgres or Kafka: nothing to finish.
  const early = (signal: NodeJS.Signals) => {
    logger.info(`${signal} received while waiting for dependencies; stopped`);
    process.exit(0);
  };
  process.on('SIGTERM', early).on('SIGINT', early);
  const consumers = await startConsumers(config, logger);
  process.off('SIGTERM', early).off('SIGINT', early);
  // The dead-letter store indexes every group's DLT, not only this process's groups: all members of its Kafka
  // group then subscribe to the same topics.
  const deadLetters = storeConfig.DEAD_LETTER_STORE
    ? await startDeadLetterStore(
        {
          databaseUrl: config.DATABASE_URL,
          brokers: config.KAFKA_BROKERS,
          namespace: config.KAFKA_NAMESPACE,
          groups: CONSUMER_GROUPS,
          topicPartitions: config.TOPIC_PARTITIONS,
          retentionSeconds: storeConfig.DEAD_LETTER_RETENTION_DAYS * 86_400,
          retentionEveryMs: storeConfig.DEAD_LETTER_RETENTION_INTERVAL_MS,
        },
        logger,
      )
    : undefined;
  logger.info({ groups: consumers.groups, deadLetterStore: storeConfig.DEAD_LETTER_STORE }, 'consumers started');
  const closeAll = async () => {
    await consumers.close();
    await deadLetters?.close();
  };
  closeOnSignals({ close: closeAll }, (message) => logger.info(message));
});
