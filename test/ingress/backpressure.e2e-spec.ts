import { randomUUID } from 'node:crypto';
import { waitFor } from '@app/testing';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

describe('backpressure before collapse', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress({ BACKPRESSURE_MAX_BACKLOG: '3', BACKPRESSURE_CHECK_MS: '50' });
  });

  afterAll(() => ingress.close());

  const deliver = () => {
    const payload = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: new Date().toISOString(),
      data: orderData(),
    });
    return post(`${ingress.url}/webhooks/shop`, payload, standardHeaders(secrets.standard[0], randomUUID(), payload));
  };

  it('answers 429 with Retry-After once the unpublished backlog reaches the limit, writes nothing, and recovers as it drains', async () => {
    for (let index = 0; index < 3; index += 1) expect((await deliver()).status).toBe(202);

    const refused = await waitFor(
      async () => {
        const response = await deliver();
        return response.status === 429 ? response : undefined;
      },
      { what: 'a 429 once the backlog sample sees 3 unpublished rows' },
    );
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body).toMatchObject({ error: 'backpressure', message: expect.stringContaining('limit 3') });
    const rowsWhileRefusing = await ingress.count('inbound_events');
    expect((await deliver()).status).toBe(429);
    expect(await ingress.count('inbound_events')).toBe(rowsWhileRefusing);
    expect(await ingress.count('outbox')).toBe(rowsWhileRefusing);

    // The relay publishes: the backlog drains and deliveries are accepted again.
    await ingress.query('UPDATE outbox SET published_at = now()');
    await waitFor(async () => (await deliver()).status === 202, { what: 'acceptance after the backlog drained' });
    expect(await ingress.count('inbound_events')).toBe(rowsWhileRefusing + 1);
    const metrics = await (await fetch(`${ingress.url}/metrics`)).text();
    expect(metrics).toMatch(/hookrail_ingress_events_rejected_total\{source="shop",reason="backpressure"\} [1-9]/);
  });
});
