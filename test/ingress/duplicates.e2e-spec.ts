import { randomBytes } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

describe('duplicates are free', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress();
  });

  afterAll(() => ingress.close());

  it('10 identical deliveries sent concurrently give one inbound_events row, one outbox row and one id', async () => {
    const messageId = `msg_${randomBytes(6).toString('hex')}`;
    const payload = JSON.stringify({
      type: 'shop.order.paid.v1',
      timestamp: new Date().toISOString(),
      data: { ...orderData(), paymentId: 'pay_1', paidAt: new Date().toISOString() },
    });
    const headers = standardHeaders(secrets.standard[0], messageId, payload);

    const responses = await Promise.all(
      Array.from({ length: 10 }, () => post(`${ingress.url}/webhooks/shop`, payload, headers)),
    );

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 202]);
    const ids = new Set(responses.map((response) => response.body.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((response) => response.body.duplicate === true)).toHaveLength(9);
    const rows = await ingress.query<{ id: string }>('SELECT id FROM inbound_events WHERE sender_event_id = $1', [
      messageId,
    ]);
    expect(rows).toEqual([{ id: [...ids][0] }]);
    expect(await ingress.query('SELECT id FROM outbox WHERE event_id = $1', [[...ids][0]])).toHaveLength(1);
  });

  it('a sequential redelivery (new timestamp and signature, same bytes) answers 200 with the first id', async () => {
    const messageId = `msg_${randomBytes(6).toString('hex')}`;
    const payload = JSON.stringify({
      type: 'shop.order.cancelled.v1',
      timestamp: new Date().toISOString(),
      data: orderData(),
    });
    const first = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], messageId, payload),
    );
    const again = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[1], messageId, payload, new Date(Date.now() - 60_000)),
    );
    expect(first.status).toBe(202);
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id, duplicate: true } });
    expect(again.body.status_url).toBeUndefined();
    expect(await ingress.count('inbound_events')).toBe(await ingress.count('outbox'));
  });
});
