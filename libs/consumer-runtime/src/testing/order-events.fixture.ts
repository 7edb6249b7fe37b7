import { CloudEvent, KafkaRecord, SHOP_ORDER_PLACED_V1, toKafkaRecord } from '@app/contracts';
import { randomUUID } from 'node:crypto';
import { Kafka } from 'kafkajs';

/** A valid shop order event for tests; `orderId` is the aggregate (and Kafka key). */
export function orderEvent(
  orderId: string,
  overrides: Partial<CloudEvent> & { data?: Record<string, unknown> } = {},
): CloudEvent {
  const { data, ...attributes } = overrides;
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: '/tests',
    type: SHOP_ORDER_PLACED_V1,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    subject: orderId,
    data: {
      orderId,
      customer: { id: `cus_${orderId}`, email: 'ada@example.com' },
      amount: 4200,
      currency: 'EUR',
      lineItems: [{ sku: 'book', quantity: 2, unitAmount: 2100 }],
      ...data,
    },
    ...attributes,
  };
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
