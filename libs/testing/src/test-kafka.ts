import { CloudEvent, KafkaRecord, toKafkaRecord } from '@app/contracts';
import { createKafka, ensureTopics, KafkaConnection, kafkaFromEnv } from '@app/kafka';
import { randomBytes } from 'node:crypto';
import { Kafka } from 'kafkajs';

/** The broker the tests use, as KAFKA_BROKERS and the other Kafka variables give it (TLS and SASL too). */
export const TEST_KAFKA: KafkaConnection = kafkaFromEnv();
export const TEST_BROKERS = TEST_KAFKA.KAFKA_BROKERS;

export function testKafka(clientId = 'hookrail-test'): Kafka {
  return createKafka(clientId, TEST_KAFKA);
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

/** Produces records the way the relay does (idempotent producer, acks from all replicas), in order. */
export async function produce(kafka: Kafka, topic: string, records: Array<CloudEvent | KafkaRecord>): Promise<void> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const messages = records.map((record) =>
      'specversion' in record ? toKafkaRecord(record as CloudEvent) : (record as KafkaRecord),
    );
    for (let start = 0; start < messages.length; start += 500) {
      await producer.send({ topic, acks: -1, messages: messages.slice(start, start + 500) });
    }
  } finally {
    await producer.disconnect();
  }
}

/** The group's committed offset per partition (-1: nothing committed). */
export async function committedOffsets(kafka: Kafka, groupId: string, topic: string): Promise<number[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [result] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return result.partitions.sort((a, b) => a.partition - b.partition).map((partition) => Number(partition.offset));
  } finally {
    await admin.disconnect();
  }
}

/** End offset of a topic's partition 0 (what has ever been produced to it). */
export async function endOffset(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return Number((await admin.fetchTopicOffsets(topic))[0].high);
  } finally {
    await admin.disconnect();
  }
}
