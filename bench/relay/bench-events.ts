import { CloudEvent } from '@app/contracts';
import { randomUUID } from 'node:crypto';

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
