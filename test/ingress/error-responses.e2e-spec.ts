import { randomBytes } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

describe('every error the webhook endpoint gives, with its body, and nothing written', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress({ MAX_BODY_BYTES: String(64 * 1024) });
  });

  afterAll(() => ingress.close());

  afterEach(async () => {
    expect(await ingress.count('inbound_events')).toBe(await ingress.count('outbox'));
  });

  const id = () => `msg_${randomBytes(6).toString('hex')}`;
  const signed = (payload: string, messageId = id()) => standardHeaders(secrets.standard[0], messageId, payload);
  const send = (payload: string | Buffer, headers: Record<string, string>, source = 'shop') =>
    post(`${ingress.url}/webhooks/${source}`, payload, headers);
  const event = (type: string, data: unknown) => JSON.stringify({ type, timestamp: new Date().toISOString(), data });

  it('404 for an unknown source', async () => {
    const payload = event('shop.order.placed.v1', orderData());
    expect(await send(payload, signed(payload), 'nope')).toMatchObject({
      status: 404,
      body: { error: 'unknown_source', message: 'no webhook source is configured under the name "nope"' },
    });
  });

  it('415 for a body that is not JSON', async () => {
    const payload = event('shop.order.placed.v1', orderData());
    const response = await send(payload, { ...signed(payload), 'content-type': 'application/x-www-form-urlencoded' });
    expect(response).toMatchObject({
      status: 415,
      body: { error: 'unsupported_media_type', message: expect.stringContaining('expected application/json') },
    });
  });

  it('413 for a body over the limit', async () => {
    const payload = event('shop.order.placed.v1', { ...orderData(), note: 'x'.repeat(70 * 1024) });
    const response = await send(payload, signed(payload));
    expect(response).toMatchObject({
      status: 413,
      body: { error: 'payload_too_large', message: expect.stringContaining('larger than the limit') },
    });
  });

  it('400 for a signed body that is not JSON', async () => {
    const payload = '{"type": "shop.order.placed.v1",';
    expect(await send(payload, signed(payload))).toMatchObject({
      status: 400,
      body: { error: 'malformed_request', message: expect.stringMatching(/^the body is not valid JSON/) },
    });
  });

  it('400 listing every field error of a known type', async () => {
    const payload = event('shop.order.placed.v1', {
      ...orderData(),
      amount: 12.5,
      currency: 'euro',
      customer: { id: 'c' },
    });
    const response = await send(payload, signed(payload));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: 'invalid_event',
      message: 'the data of shop.order.placed.v1 does not match its schema',
    });
    expect((response.body.fieldErrors as Array<{ field: string }>).map((error) => error.field).sort()).toEqual([
      'amount',
      'currency',
      'customer.email',
    ]);
  });

  it('400 for a missing event type', async () => {
    const payload = JSON.stringify({ data: orderData() });
    expect(await send(payload, signed(payload))).toMatchObject({
      status: 400,
      body: { error: 'malformed_request', message: expect.stringContaining('event type') },
    });
  });

  it('409 for the same id with a different payload, leaving the first untouched', async () => {
    const messageId = id();
    const first = event('shop.order.placed.v1', orderData('ord_conflict'));
    const accepted = await send(first, signed(first, messageId));
    expect(accepted.status).toBe(202);
    const second = event('shop.order.placed.v1', { ...orderData('ord_conflict'), amount: 1 });
    const rejected = await send(second, signed(second, messageId));
    expect(rejected).toMatchObject({
      status: 409,
      body: {
        error: 'event_id_conflict',
        message: `event id "${messageId}" was already received with a different payload`,
      },
    });
    const rows = await ingress.query<{ id: string; payload: { data: { amount: number } } }>(
      'SELECT id, payload FROM inbound_events WHERE sender_event_id = $1',
      [messageId],
    );
    expect(rows).toEqual([
      { id: accepted.body.id, payload: expect.objectContaining({ data: expect.objectContaining({ amount: 4200 }) }) },
    ]);
    expect(await ingress.count('outbox')).toBe(await ingress.count('inbound_events'));
  });

  it('accepts and routes a type it has no schema for', async () => {
    const payload = event('shop.customer.merged.v7', { anything: ['goes'] });
    const response = await send(payload, signed(payload));
    expect(response.status).toBe(202);
    const [row] = await ingress.query<{ topic: string; headers: Record<string, string> }>(
      'SELECT topic, headers FROM outbox WHERE event_id = $1',
      [response.body.id],
    );
    expect(row.topic).toBe('shop.orders');
    expect(row.headers.ce_type).toBe('shop.customer.merged.v7');
  });

  it('carries the request traceparent into the event headers', async () => {
    const payload = event('shop.order.placed.v1', orderData());
    const traceparent = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
    const response = await send(payload, { ...signed(payload), traceparent });
    const [row] = await ingress.query<{ headers: Record<string, string> }>(
      'SELECT headers FROM outbox WHERE event_id = $1',
      [response.body.id],
    );
    expect(row.headers.ce_traceparent).toBe(traceparent);
  });

  it('404 with a JSON body for a route that does not exist', async () => {
    const response = await fetch(`${ingress.url}/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'not_found', message: 'no route for GET /nothing-here' });
  });
});
