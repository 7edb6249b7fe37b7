import { Admin, Kafka } from 'kafkajs';

export interface TopicSpec {
  topic: string;
  numPartitions: number;
}

const LEADER_TIMEOUT_MS = 30_000;

/**
 * Creates the topics that do not exist yet and waits until every partition has a leader; returns the names it
 * created. Safe to run any number of times.
 */
export async function ensureTopics(kafka: Kafka, topics: TopicSpec[]): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    // A topic named twice (two groups reading it) is created once.
    const missing = [...new Map(topics.map((spec) => [spec.topic, spec])).values()].filter(
      (spec) => !existing.has(spec.topic),
    );
    if (missing.length === 0) return [];
    // kafkajs's own leader wait bails on UNKNOWN_TOPIC_OR_PARTITION (seen in CI); ours below retries it.
    // Replication factor -1: the brokers' default.replication.factor, so a topic follows the cluster it is made on
    // (1 on the single local broker, 3 on `KAFKA_NODES=3 kafka.sh up` or the compose `cluster` profile).
    await admin.createTopics({
      waitForLeaders: false,
      topics: missing.map((spec) => ({ topic: spec.topic, numPartitions: spec.numPartitions, replicationFactor: -1 })),
    });
    await waitForLeaders(
      admin,
      missing.map((spec) => spec.topic),
    );
    return missing.map((spec) => spec.topic);
  } finally {
    await admin.disconnect();
  }
}

/**
 * kafkajs's own `waitForLeaders` gives up on UNKNOWN_TOPIC_OR_PARTITION, which a freshly started broker answers
 * while the new topic's metadata propagates; this polls the metadata until every partition has a leader.
 */
async function waitForLeaders(admin: Admin, topics: string[]): Promise<void> {
  const deadline = Date.now() + LEADER_TIMEOUT_MS;
  let lastError = 'no metadata yet';
  while (Date.now() < deadline) {
    try {
      const metadata = await admin.fetchTopicMetadata({ topics });
      if (
        metadata.topics.every(
          (topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0),
        )
      )
        return;
      lastError = 'partitions without a leader';
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`topics ${topics.join(', ')} have no leader after ${LEADER_TIMEOUT_MS} ms: ${lastError}`);
}
