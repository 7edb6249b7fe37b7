import { randomUUID } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';

describe('POST /events (CloudEvents from internal producers)', () => {
  let ingress: Ingress;
  const auth = () => ({ authorization: `Bearer ${secrets.producerToken}` });

  beforeAll(async () => {
    ingress = await startIngress();
  });

  afterAll(() => ingress.close());

  it("accepts structured mode, routes shop types to shop.orders, keys by subject, keeps the producer's id and dedupes on source + id", async () => {
    const event = {
      specversion: '1.0',
      id: randomUUID(),
      source: '/billing',
      type: 'shop.order.placed.v1',
      subject: 'ord_77',
      // Not the producer's to set: hookrail's id goes there.
      hookrailid: 'forged',
      data: orderData('ord_77'),
    };
    const headers = { ...auth(), 'content-type': 'application/cloudevents+json' };
    const first = await post(`${ingress.url}/events`, JSON.stringify(event), headers);
    expect(first).toMatchObject({ status: 202, body: { duplicate: false, status_url: `/events/${first.body.id}` } });
    const again = await post(`${ingress.url}/events`, JSON.stringify(event), headers);
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id, duplicate: true } });
    const [row] = await ingress.query<{ topic: string; key: string; headers: Record<string, string> }>(
      'SELECT topic, key, headers FROM outbox WHERE event_id = $1',
      [first.body.id],
    );
    expect(row).toMatchObject({
      topic: 'shop.orders',
      key: 'ord_77',
      headers: expect.objectContaining({
        ce_id: event.id,
        ce_hookrailid: first.body.id,
        ce_source: '/billing',
        ce_type: 'shop.order.placed.v1',
        ce_dataschema: 'urn:hookrail:event:shop.order.placed.v1',
      }),
    });
  });

  it('accepts binary mode (ce-* headers) and routes other types to hookrail.inbound, keyed by partitionkey', async () => {
    const id = randomUUID();
    const response = await post(`${ingress.url}/events`, JSON.stringify({ seats: 3 }), {
      ...auth(),
      'content-type': 'application/json',
      'ce-specversion': '1.0',
      'ce-id': id,
      'ce-source': '/crm',
      'ce-type': 'crm.account.updated.v1',
      'ce-partitionkey': 'acct_9',
      'ce-dataschema': 'https://schemas.example/crm/account-updated.json',
    });
    expect(response.status).toBe(202);
    const [row] = await ingress.query<{ topic: string; key: string; value: string; headers: Record<string, string> }>(
      'SELECT topic, key, value, headers FROM outbox WHERE event_id = $1',
      [response.body.id],
    );
    expect(row).toMatchObject({ topic: 'hookrail.inbound', key: 'acct_9', value: '{"seats":3}' });
    expect(row.headers.ce_partitionkey).toBe('acct_9');
    expect(row.headers).toMatchObject({ ce_id: id, ce_hookrailid: response.body.id });
    // The producer sent no subject: none is made up from the key.
    expect(row.headers.ce_subject).toBeUndefined();
    // No contract for the type: the producer's own schema is passed on.
    expect(row.headers.ce_dataschema).toBe('https://schemas.example/crm/account-updated.json');
  });

  it("keeps the producer's subject beside its partitionkey: the key is the partitionkey, the subject unchanged", async () => {
    const event = {
      specversion: '1.0',
      id: randomUUID(),
      source: '/billing',
      type: 'shop.order.placed.v1',
      subject: 'ord_X',
      partitionkey: 'pk-ord_X',
      data: orderData('ord_X'),
    };
    const response = await post(`${ingress.url}/events`, JSON.stringify(event), {
      ...auth(),
      'content-type': 'application/cloudevents+json',
    });
    expect(response.status).toBe(202);
    const [row] = await ingress.query<{ key: string; headers: Record<string, string> }>(
      'SELECT key, headers FROM outbox WHERE event_id = $1',
      [response.body.id],
    );
    expect(row.key).toBe('pk-ord_X');
    expect(row.headers).toMatchObject({ ce_subject: 'ord_X', ce_partitionkey: 'pk-ord_X', ce_source: '/billing' });
  });

  it('401 without or with a wrong token, and nothing is written', async () => {
    const before = await ingress.count('inbound_events');
    const event = JSON.stringify({ specversion: '1.0', id: randomUUID(), source: '/x', type: 'x.y', data: {} });
    const missing = await post(`${ingress.url}/events`, event, { 'content-type': 'application/cloudevents+json' });
    const wrong = await post(`${ingress.url}/events`, event, {
      'content-type': 'application/cloudevents+json',
      authorization: 'Bearer not-the-token-at-all',
    });
    expect(missing).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: expect.stringContaining('missing bearer token') },
    });
    expect(wrong).toMatchObject({
      status: 401,
      body: { error: 'unauthorized', message: 'the bearer token is not valid' },
    });
    expect(await ingress.count('inbound_events')).toBe(before);
  });

  it('400 for an event without id, an invalid CloudEvent, or invalid data of a known type; 415 for other media', async () => {
    const headers = { ...auth(), 'content-type': 'application/cloudevents+json' };
    const noId = await post(
      `${ingress.url}/events`,
      JSON.stringify({ specversion: '1.0', source: '/x', type: 'x.y' }),
      headers,
    );
    const noSource = await post(
      `${ingress.url}/events`,
      JSON.stringify({ specversion: '1.0', id: 'a', type: 'x.y' }),
      headers,
    );
    const badData = await post(
      `${ingress.url}/events`,
      JSON.stringify({ specversion: '1.0', id: 'b', source: '/x', type: 'shop.order.paid.v1', data: orderData() }),
      headers,
    );
    const text = await post(`${ingress.url}/events`, 'hello', { ...auth(), 'content-type': 'text/plain' });
    expect(noId).toMatchObject({
      status: 400,
      body: { error: 'malformed_request', message: 'the CloudEvent has no id' },
    });
    expect(noSource).toMatchObject({
      status: 400,
      body: { error: 'malformed_request', message: 'the CloudEvent source is missing' },
    });
    expect(badData).toMatchObject({
      status: 400,
      body: { error: 'invalid_event', fieldErrors: [{ field: 'paymentId' }, { field: 'paidAt' }] },
    });
    expect(text.status).toBe(415);
  });
});
