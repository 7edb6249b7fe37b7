import {
  CloudEvent,
  SHOP_ORDER_CANCELLED_V1,
  SHOP_ORDER_PAID_V1,
  SHOP_ORDER_PLACED_V1,
  toKafkaRecord,
} from '@app/contracts';
import { Kafka } from 'kafkajs';
import { randomUUID } from 'node:crypto';

/** `count` events, three per order (placed, paid, cancelled); `keys` orders in turn when given, else each its own. */
export function orderEvents(count: number, keys?: number): CloudEvent[] {
  const types = [SHOP_ORDER_PLACED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_CANCELLED_V1];
  return Array.from({ length: count }, (_, index) => {
    const orderId = keys ? `ord-${index % keys}` : `ord-${Math.floor(index / 3)}`;
    const type = types[(keys ? Math.floor(index / keys) : index) % 3];
    const data: Record<string, unknown> = {
      orderId,
      customer: { id: `cus-${index % 5000}`, email: 'ada@example.com' },
      amount: 1000 + (index % 900),
      currency: 'EUR',
      lineItems: [{ sku: 'book', quantity: 1, unitAmount: 1000 + (index % 900) }],
    };
    if (type === SHOP_ORDER_PAID_V1)
      Object.assign(data, { paymentId: `pay-${index}`, paidAt: new Date().toISOString() });
    return {
      specversion: '1.0',
      id: randomUUID(),
      source: '/bench',
      type,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      subject: orderId,
      data,
    };
  });
}

/** The events to `topic`, 2,000 per request, through an idempotent producer waiting for every replica. */
export async function produceAll(kafka: Kafka, topic: string, events: CloudEvent[]): Promise<void> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  for (let start = 0; start < events.length; start += 2000) {
    await producer.send({ topic, acks: -1, messages: events.slice(start, start + 2000).map(toKafkaRecord) });
  }
  await producer.disconnect();
}
