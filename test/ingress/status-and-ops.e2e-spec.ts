import { randomUUID } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

describe('GET /events/:id, /readyz and /metrics', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress();
  });

  afterAll(() => ingress.close());

  it('reports accepted, parked while the broker refuses it, then published once the outbox row is marked published', async () => {
    const payload = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: new Date().toISOString(),
      data: orderData('ord_status'),
    });
    const accepted = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], randomUUID(), payload),
    );
    const statusUrl = `${ingress.url}${accepted.body.status_url}`;
    const read = async () => fetch(statusUrl, { headers: await ingress.viewer() });

    const before = await (await read()).json();
    expect(before).toMatchObject({
      id: accepted.body.id,
      source: 'shop',
      type: 'shop.order.placed.v1',
      aggregateId: 'ord_status',
      status: 'accepted',
      publishedAt: null,
    });

    await ingress.query(`UPDATE outbox SET parked_at = now(), last_error = 'MESSAGE_TOO_LARGE' WHERE event_id = $1`, [
      accepted.body.id,
    ]);
    expect(await (await read()).json()).toMatchObject({
      status: 'parked',
      publishError: 'MESSAGE_TOO_LARGE',
    });

    await ingress.query('UPDATE outbox SET parked_at = NULL, published_at = now() WHERE event_id = $1', [
      accepted.body.id,
    ]);
    const after = await (await read()).json();
    expect(after).toMatchObject({ status: 'published', publishedAt: expect.any(String), groups: [] });

    // What the consumer runtime records: processed for one group, dead for another.
    await ingress.query(`INSERT INTO processed_events ("group", event_id) VALUES ('ledger', $1)`, [accepted.body.id]);
    await ingress.query(
      `INSERT INTO consumer_event_status ("group", event_id, status, attempts, last_error) VALUES ('notifier', $1, 'dead', 5, 'provider rejected the address')`,
      [accepted.body.id],
    );
    const { groups } = (await (await read()).json()) as { groups: unknown[] };
    const task = (await (await read()).json()) as { agentTask?: unknown };
    expect(task.agentTask).toBeUndefined();
    await ingress.query(
      `INSERT INTO agent_tasks (event_id, event_type, event, source_topic, source_partition, source_offset, state, attempts, last_error_class, last_error)
       VALUES ($1, 'shop.order.placed.v1', '{}', 'shop.orders', 0, '7', 'failed', 2, 'ModelTimeout', 'no answer in 30 s')`,
      [accepted.body.id],
    );
    expect(((await (await read()).json()) as { agentTask?: unknown }).agentTask).toMatchObject({
      state: 'failed',
      attempts: 2,
      lastError: 'ModelTimeout: no answer in 30 s',
    });
    expect(groups).toEqual([
      { group: 'ledger', status: 'processed', attempts: 1, lastError: null, updatedAt: expect.any(String) },
      {
        group: 'notifier',
        status: 'dead',
        attempts: 5,
        lastError: 'provider rejected the address',
        updatedAt: expect.any(String),
      },
    ]);
  });

  it('404 for an unknown id and 400 for something that is not an id', async () => {
    const headers = await ingress.viewer();
    const unknown = await fetch(`${ingress.url}/events/${randomUUID()}`, { headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'not_found' });
    const malformed = await fetch(`${ingress.url}/events/not-a-uuid`, { headers });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      error: 'malformed_request',
      message: '"not-a-uuid" is not an event id (a UUID)',
    });
  });

  it('/readyz is ready when Postgres answers', async () => {
    const response = await fetch(`${ingress.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
  });

  it('/metrics counts accepted, duplicate and rejected deliveries and records latency by route and status', async () => {
    const payload = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: new Date().toISOString(),
      data: orderData(),
    });
    const headers = standardHeaders(secrets.standard[0], randomUUID(), payload);
    await post(`${ingress.url}/webhooks/shop`, payload, headers);
    await post(`${ingress.url}/webhooks/shop`, payload, headers);
    await post(`${ingress.url}/webhooks/shop`, payload, { ...headers, 'webhook-signature': 'v1,AAAA' });
    const response = await fetch(`${ingress.url}/metrics`);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/hookrail_ingress_events_accepted_total\{source="shop"\} [2-9]/);
    expect(text).toMatch(/hookrail_ingress_events_duplicate_total\{source="shop"\} [1-9]/);
    expect(text).toMatch(/hookrail_ingress_events_rejected_total\{source="shop",reason="invalid_signature"\} 1/);
    expect(text).toMatch(
      /hookrail_http_request_duration_seconds_count\{method="POST",route="\/webhooks\/:source",status="202"\} [2-9]/,
    );
  });
});
