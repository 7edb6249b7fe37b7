import { waitFor } from '@app/testing';
import { randomUUID } from 'node:crypto';
import {
  Ingress,
  IngressProcess,
  orderData,
  post,
  secrets,
  startIngress,
  startIngressProcess,
} from './ingress-harness';
import { standardHeaders } from './signing';
import { openStream } from './sse-client';
import { bearer, issueTestToken, revokeTestToken } from './status-tokens';

const RECHECK_MS = 200;
const SENDER_FIELDS = ['groups', 'id', 'publishedAt', 'receivedAt', 'status'];

describe('who may read GET /events/:id and its stream (EVENT_STATUS_ACCESS=token)', () => {
  let ingress: Ingress;
  let webhookEvent: string;
  let cloudEvent: string;
  const producer = bearer(secrets.producerToken);
  const read = (id: string, headers: Record<string, string> = {}) =>
    fetch(`${ingress.url}/events/${id}`, { headers }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as Record<string, any>,
    }));
  const token = (input: Parameters<typeof issueTestToken>[1]) => issueTestToken(ingress.database.url, input);

  beforeAll(async () => {
    ingress = await startIngress({ EVENT_STATUS_RECHECK_MS: String(RECHECK_MS) });
    const payload = JSON.stringify({ type: 'shop.order.placed.v1', data: orderData('ord_access') });
    const webhook = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], randomUUID(), payload),
    );
    webhookEvent = String(webhook.body.id);
    const event = { specversion: '1.0', id: randomUUID(), source: '/billing', type: 'shop.order.placed.v1' };
    const produced = await post(`${ingress.url}/events`, JSON.stringify({ ...event, data: orderData() }), {
      ...producer,
      'content-type': 'application/cloudevents+json',
    });
    cloudEvent = String(produced.body.id);
    // What operators may know and senders may not: why the broker refused it, why a group gave up.
    await ingress.query(`UPDATE outbox SET parked_at = now(), last_error = 'MESSAGE_TOO_LARGE' WHERE event_id = $1`, [
      webhookEvent,
    ]);
    for (const [group, status, error] of [
      ['ledger', 'processed', null],
      ['notifier', 'dead', 'smtp.internal.example refused ada@example.com'],
    ])
      await ingress.query(
        `INSERT INTO consumer_event_status ("group", event_id, status, attempts, last_error) VALUES ($1, $2, $3, 3, $4)`,
        [group, webhookEvent, status, error],
      );
  });

  afterAll(() => ingress.close());

  it('answers 401 naming what to send without a bearer token, or with a malformed Authorization', async () => {
    const malformed: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic dXNlcjpwdw==' },
      { authorization: 'Bearer' },
    ];
    for (const headers of malformed) {
      const answer = await read(webhookEvent, headers);
      expect(answer).toEqual({
        status: 401,
        body: { error: 'unauthorized', message: expect.stringContaining('Authorization: Bearer <token>') },
      });
    }
    const stream = await fetch(`${ingress.url}/events/${webhookEvent}/stream`);
    expect(stream.status).toBe(401);
    expect(stream.headers.get('content-type')).toContain('application/json');
  });

  it('answers 401 for an unknown token, and at once for a revoked or an expired one, with the reason', async () => {
    expect(await read(webhookEvent, bearer('hrk_not-a-token'))).toMatchObject({
      status: 401,
      body: { message: 'the bearer token is not valid' },
    });
    const revoked = await token({ role: 'viewer', name: 'to-revoke' });
    expect((await read(webhookEvent, bearer(revoked))).status).toBe(200);
    await revokeTestToken(ingress.database.url, 'to-revoke');
    expect(await read(webhookEvent, bearer(revoked))).toMatchObject({
      status: 401,
      body: { message: expect.stringMatching(/^token to-revoke was revoked at \d{4}-/) },
    });
    const expired = await token({ role: 'status', name: 'expired', expiresAt: new Date(Date.now() + 300) });
    await waitFor(async () => (await read(webhookEvent, bearer(expired))).status === 401, { what: 'the expiry' });
    expect((await read(webhookEvent, bearer(expired))).body.message).toMatch(/^token expired expired at /);
  });

  it('answers 404, exactly as for an unknown id, to a status token of another source', async () => {
    const stripe = bearer(await token({ role: 'status', sources: ['stripe'] }));
    const hidden = await read(webhookEvent, stripe);
    const unknownId = randomUUID();
    const unknown = await read(unknownId, stripe);
    expect(hidden).toEqual({ status: 404, body: { error: 'not_found', message: `no event with id ${webhookEvent}` } });
    expect(unknown).toEqual({ status: 404, body: { error: 'not_found', message: `no event with id ${unknownId}` } });
    expect((await fetch(`${ingress.url}/events/${webhookEvent}/stream`, { headers: stripe })).status).toBe(404);
  });

  it('gives a status token of the event’s source the sender view: states and times, no error text', async () => {
    const answer = await read(webhookEvent, bearer(await token({ role: 'status', sources: ['shop', 'stripe'] })));
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(SENDER_FIELDS);
    expect(answer.body).toEqual({
      id: webhookEvent,
      status: 'parked',
      receivedAt: expect.any(String),
      publishedAt: null,
      groups: [
        { group: 'ledger', status: 'processed', updatedAt: expect.any(String) },
        { group: 'notifier', status: 'dead', updatedAt: expect.any(String) },
      ],
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/MESSAGE_TOO_LARGE|smtp|ord_access/);
  });

  it('gives a producer token the sender view of a CloudEvent, and 404 for a webhook’s event', async () => {
    const answer = await read(cloudEvent, producer);
    expect(answer).toEqual({
      status: 200,
      body: { id: cloudEvent, status: 'accepted', receivedAt: expect.any(String), publishedAt: null, groups: [] },
    });
    expect(await read(webhookEvent, producer)).toEqual({
      status: 404,
      body: { error: 'not_found', message: `no event with id ${webhookEvent}` },
    });
  });

  it('gives operator tokens the full view, limited to the groups of a token that has some', async () => {
    const viewer = await read(webhookEvent, await ingress.viewer());
    expect(viewer.body).toMatchObject({ source: 'shop', aggregateId: 'ord_access', publishError: 'MESSAGE_TOO_LARGE' });
    expect(viewer.body.groups).toHaveLength(2);
    const ledger = await read(webhookEvent, bearer(await token({ role: 'viewer', groups: ['ledger'] })));
    expect(ledger.status).toBe(200);
    expect(ledger.body).toMatchObject({ source: 'shop', publishError: 'MESSAGE_TOO_LARGE' });
    expect(ledger.body.groups).toEqual([expect.objectContaining({ group: 'ledger', status: 'processed' })]);
    const notifier = await read(webhookEvent, bearer(await token({ role: 'operator', groups: ['notifier'] })));
    expect(notifier.body.groups).toEqual([
      expect.objectContaining({ group: 'notifier', lastError: 'smtp.internal.example refused ada@example.com' }),
    ]);
  });

  it('ends an open stream, with an access-ended event naming why, once its token is revoked', async () => {
    const streamed = await token({ role: 'status', name: 'streamed', sources: ['shop'] });
    const stream = openStream(`${ingress.url}/events/${webhookEvent}/stream`, bearer(streamed));
    try {
      await waitFor(() => stream.frames.some((frame) => frame.event === 'status'), { what: 'the first status frame' });
      expect(Object.keys(stream.frames[0].data).sort()).toEqual(SENDER_FIELDS);
      await revokeTestToken(ingress.database.url, 'streamed');
      await waitFor(() => stream.state.ended, { what: 'the stream to end', timeoutMs: 10 * RECHECK_MS + 2_000 });
      expect(stream.frames.at(-1)).toEqual({
        event: 'access-ended',
        data: { error: 'unauthorized', message: expect.stringMatching(/^token streamed was revoked at /) },
      });
    } finally {
      stream.close();
      await stream.done;
    }
  });

  it('ends an open stream once its token expires', async () => {
    const expiresAt = new Date(Date.now() + 1_000);
    const expiring = await token({ role: 'viewer', name: 'expiring', expiresAt });
    const stream = openStream(`${ingress.url}/events/${cloudEvent}/stream`, bearer(expiring));
    try {
      await waitFor(() => stream.state.ended, {
        what: 'the stream to end',
        timeoutMs: 1_000 + 10 * RECHECK_MS + 2_000,
      });
      expect(stream.frames.map((frame) => frame.event)).toEqual(['status', 'access-ended']);
      expect(stream.frames[1].data.message).toBe(`token expiring expired at ${expiresAt.toISOString()}`);
    } finally {
      stream.close();
      await stream.done;
    }
  });
});

describe('EVENT_STATUS_ACCESS=public', () => {
  let ingress: IngressProcess;

  beforeAll(async () => {
    ingress = await startIngressProcess({ EVENT_STATUS_ACCESS: 'public' });
  });

  afterAll(() => ingress.close());

  it('says so at start, and gives anyone with the id the full view, as before tokens', async () => {
    expect(ingress.process.logLines()).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: expect.stringContaining('EVENT_STATUS_ACCESS=public') }),
    );
    const payload = JSON.stringify({ type: 'shop.order.placed.v1', data: orderData('ord_public') });
    const accepted = await post(
      `${ingress.url}/webhooks/shop`,
      payload,
      standardHeaders(secrets.standard[0], randomUUID(), payload),
    );
    const response = await fetch(`${ingress.url}/events/${String(accepted.body.id)}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ source: 'shop', aggregateId: 'ord_public', status: 'accepted' });
  });
});
