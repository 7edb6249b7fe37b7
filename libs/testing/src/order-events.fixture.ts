import { CloudEvent, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { randomUUID } from 'node:crypto';

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
