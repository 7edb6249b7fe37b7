import { CloudEvent } from '@app/contracts';
import { managerRows } from '@app/db';
import { OutboxRepository, toOutboxRow } from '@app/outbox';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

/** Aggregates the bench events are spread over. */
export const AGGREGATES = 10_000;

/** A realistic order event (about 600 bytes on the wire with its headers), the same for the relay and the raw producer. */
export function benchEvent(aggregate: string): CloudEvent {
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: '/webhooks/shop',
    type: 'shop.order.placed.v1',
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    subject: aggregate,
    traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    data: {
      orderId: aggregate,
      customer: { id: 'cus_8f2b1c', email: 'ada@example.com', name: 'Ada Lovelace' },
      amount: 12_990,
      currency: 'EUR',
      lines: [
        { sku: 'SKU-1001', name: 'Notebook, dotted, A5', quantity: 2, unitAmount: 1_495 },
        { sku: 'SKU-2002', name: 'Fountain pen, medium nib', quantity: 1, unitAmount: 10_000 },
      ],
      note: 'Leave at the door',
    },
  };
}

/** A backlog of bench events in the outbox, 1000 rows per statement (the reader is measured, not the writer). */
export async function insertBacklog(dataSource: DataSource, topic: string, count: number): Promise<void> {
  const outbox = new OutboxRepository(managerRows(dataSource));
  for (let start = 0; start < count; start += 1000) {
    await outbox.insertMany(
      Array.from({ length: Math.min(1000, count - start) }, (_, i) =>
        toOutboxRow(topic, benchEvent(`order-${(start + i) % AGGREGATES}`)),
      ),
    );
  }
}
