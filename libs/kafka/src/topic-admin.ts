import { Kafka } from 'kafkajs';

export interface TopicSpec {
  topic: string;
  numPartitions: number;
}

/** Creates the topics that do not exist yet; returns the names it created. Safe to run any number of times. */
export async function ensureTopics(kafka: Kafka, topics: TopicSpec[]): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((spec) => !existing.has(spec.topic));
    if (missing.length === 0) return [];
    await admin.createTopics({
      topics: missing.map((spec) => ({ topic: spec.topic, numPartitions: spec.numPartitions, replicationFactor: -1 })),
      waitForLeaders: true,
    });
    return missing.map((spec) => spec.topic);
  } finally {
    await admin.disconnect();
  }
}
