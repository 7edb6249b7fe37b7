import { Closable } from '@app/config';
import { DEAD_LETTER_STORE_GROUP, dltTopic, replayTopic } from '@app/contracts';
import { connect } from '@app/db';
import { scheduleJob } from '@app/jobs';
import { JobHeartbeatEntity } from '@app/jobs/entities';
import { createKafka, KafkaConnection, prepareKafkaAccess } from '@app/kafka';
import { Logger } from 'pino';
import { DeadLetterEntity } from '../entities/dead-letter.entity';
import { DEAD_LETTER_RETENTION_JOB, pruneDeadLetters } from '../retention/dead-letter-retention';
import { DeadLetterStore } from './dead-letter-store';

export interface DeadLetterStoreSettings {
  databaseUrl: string;
  kafka: KafkaConnection;
  /** Prefix of every topic and group id (KAFKA_NAMESPACE). */
  namespace: string;
  /** The consumer groups whose `<group>.dlt` the store indexes. */
  groups: readonly string[];
  /** Create a missing DLT or replay topic (development) with this many partitions, instead of stopping. */
  createTopics: boolean;
  topicPartitions: number;
  /** Resolved and purged dead letters are deleted after this long. */
  retentionSeconds: number;
  retentionEveryMs: number;
}

/** Starts the dead-letter store and its retention job with a database pool and Kafka client of their own. */
export async function startDeadLetterStore(settings: DeadLetterStoreSettings, logger: Logger): Promise<Closable> {
  const namespaced = (name: string) => `${settings.namespace}${name}`;
  const dataSource = await connect({
    url: settings.databaseUrl,
    applicationName: 'hookrail-dlq-store',
    poolSize: 3,
    entities: [DeadLetterEntity, JobHeartbeatEntity],
  });
  const kafka = createKafka('hookrail-dlq-store', settings.kafka, logger);
  const sources = settings.groups.map((group) => ({
    group,
    dltTopic: namespaced(dltTopic(group)),
    replayTopic: namespaced(replayTopic(group)),
  }));
  await prepareKafkaAccess(kafka, settings.kafka, {
    topics: sources.flatMap((source) => [source.dltTopic, source.replayTopic]),
    groups: [namespaced(DEAD_LETTER_STORE_GROUP)],
    createWithPartitions: settings.createTopics ? settings.topicPartitions : undefined,
  });
  const store = new DeadLetterStore({
    kafka,
    dataSource,
    logger,
    groupId: namespaced(DEAD_LETTER_STORE_GROUP),
    sources,
  });
  await store.start();
  const retention = scheduleJob(
    DEAD_LETTER_RETENTION_JOB,
    settings.retentionEveryMs,
    (schedule) => pruneDeadLetters(dataSource, { retentionSeconds: settings.retentionSeconds }, schedule),
    logger,
  );
  retention.start();
  return {
    close: async () => {
      await retention.stop();
      await store.stop();
      await dataSource.destroy();
    },
  };
}
