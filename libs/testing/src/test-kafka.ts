import { randomBytes } from 'node:crypto';
import { Kafka } from 'kafkajs';
import { createKafka, ensureTopics } from '@app/kafka';

export const TEST_BROKERS = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');

export function testKafka(clientId = 'hookrail-test'): Kafka {
  return createKafka(clientId, TEST_BROKERS);
}

/** A name no other test uses: topics and groups are unique per test, so tests never see each other's messages. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export async function createTestTopic(prefix: string, numPartitions = 1): Promise<string> {
  const topic = uniqueName(prefix);
  await ensureTopics(testKafka(), [{ topic, numPartitions }]);
  return topic;
}

export async function deleteTopics(topics: string[]): Promise<void> {
  const admin = testKafka().admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics, timeout: 10_000 });
  } finally {
    await admin.disconnect();
  }
}
