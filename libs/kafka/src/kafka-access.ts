import { ConfigError } from '@app/config';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaConnection, kafkaPrincipal, kafkaSecurity } from './kafka-connection';
import { explainKafkaError } from './kafka-errors';
import { quietIdleRequestQueues } from './request-queue-timers';
import { ensureTopics } from './topic-admin';

export interface KafkaAccess {
  /** Topics the program reads or writes: each must exist and be visible to its principal. */
  topics: readonly string[];
  /** Consumer groups the program joins: its principal must be allowed to use each. */
  groups: readonly string[];
}

/**
 * Checks at start what a program will need of Kafka, so that a missing topic or ACL stops it with one line that names
 * it (a ConfigError), instead of a consumer that retries "Failed to find group coordinator" forever: kafkajs 2.2.4
 * reports a group its principal may not use so, and keeps the broker's GROUP_AUTHORIZATION_FAILED in a debug line,
 * which this check's own client reads.
 */
export async function checkKafkaAccess(connection: KafkaConnection, access: KafkaAccess): Promise<void> {
  const principal = kafkaPrincipal(connection);
  const refusedGroups = new Set<string>();
  quietIdleRequestQueues();
  const admin = new Kafka({
    clientId: 'hookrail-access-check',
    ...kafkaSecurity(connection),
    connectionTimeout: 3000,
    retry: { retries: 3, initialRetryTime: 100 },
    logLevel: logLevel.DEBUG,
    logCreator: () => (entry) => {
      const { groupId, error } = entry.log as { groupId?: string; error?: { type?: string } };
      if (groupId && error?.type === 'GROUP_AUTHORIZATION_FAILED') refusedGroups.add(groupId);
    },
  }).admin();
  await admin.connect();
  try {
    for (const topic of new Set(access.topics)) {
      try {
        await admin.fetchTopicMetadata({ topics: [topic] });
      } catch (error) {
        const type = (error as { type?: string }).type;
        if (type === 'UNKNOWN_TOPIC_OR_PARTITION')
          throw new ConfigError(
            `Kafka has no topic ${topic}: create the project's topics with npm run topics:create ` +
              `(with an administrator's credentials and this KAFKA_NAMESPACE)`,
          );
        const refused = explainKafkaError(error, connection, `topic ${topic} (it may also not exist)`);
        if (refused) throw new ConfigError(refused);
        // Anything else (a leader moving, a broker restarting) is for the program's own clients to retry.
      }
    }
    for (const group of new Set(access.groups)) {
      try {
        await admin.describeGroups([group]);
      } catch (error) {
        if (refusedGroups.has(group))
          throw new ConfigError(
            `Kafka refused ${principal} access to consumer group ${group} (GROUP_AUTHORIZATION_FAILED): grant READ on ` +
              `group ${group} (npm run kafka:acls lists the ACLs of each program)`,
          );
        const refused = explainKafkaError(error, connection, `consumer group ${group}`);
        if (refused) throw new ConfigError(refused);
        // A coordinator still loading (a new broker) is for the consumer to wait for.
      }
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Before a program consumes: with `createWithPartitions` (development, KAFKA_CREATE_TOPICS=true) the missing topics
 * are created; then what it needs is checked (checkKafkaAccess), so that a missing topic names `topics:create`.
 */
export async function prepareKafkaAccess(
  kafka: Kafka,
  connection: KafkaConnection,
  access: KafkaAccess & { createWithPartitions?: number },
): Promise<void> {
  if (access.createWithPartitions)
    await ensureTopics(
      kafka,
      access.topics.map((topic) => ({ topic, numPartitions: access.createWithPartitions! })),
    );
  await checkKafkaAccess(connection, access);
}
