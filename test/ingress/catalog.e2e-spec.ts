import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';

const committed = (file: string) => JSON.parse(readFileSync(path.resolve(__dirname, '../../contracts', file), 'utf8'));

describe('the event catalogue served by the ingress (/catalog)', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress({ KAFKA_BROKERS: 'kafka-a.internal:9092,kafka-b.internal:9092' });
  });

  afterAll(() => ingress.close());

  async function get(route: string): Promise<{ status: number; type: string | null; text: string; body: any }> {
    const response = await fetch(`${ingress.adminUrl}${route}`);
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), text, body: JSON.parse(text) };
  }

  it('GET /catalog/asyncapi.json: the committed AsyncAPI document, with this deployment’s brokers, no token needed', async () => {
    const { status, type, body } = await get('/catalog/asyncapi.json');
    expect(status).toBe(200);
    expect(type).toContain('application/json');
    const expected = committed('asyncapi.json');
    expect({ ...body, servers: undefined }).toEqual({ ...expected, servers: undefined });
    expect(Object.values(body.servers)).toEqual([
      expect.objectContaining({ host: 'kafka-a.internal:9092', protocol: 'kafka' }),
      expect.objectContaining({ host: 'kafka-b.internal:9092', protocol: 'kafka' }),
    ]);
  });

  it('GET /catalog/schemas/:type: the JSON Schema of the type (also as <type>.json); 404 naming an unknown type', async () => {
    const schema = await get('/catalog/schemas/shop.order.paid.v1');
    expect(schema).toMatchObject({ status: 200, body: committed('schemas/shop.order.paid.v1.json') });
    expect(schema.type).toContain('application/schema+json');
    expect((await get('/catalog/schemas/shop.order.paid.v1.json')).body).toEqual(schema.body);

    // An event's ce_dataschema (the schema's $id) names the same entry.
    expect((await get('/catalog/schemas/urn:hookrail:event:shop.order.paid.v1')).body).toEqual(schema.body);

    const unknown = await get('/catalog/schemas/shop.order.lost.v1');
    expect(unknown).toMatchObject({
      status: 404,
      body: {
        error: 'not_found',
        message: expect.stringMatching(
          /^no event type "shop\.order\.lost\.v1" in the catalogue; known types: .*shop\.order\.paid\.v1/,
        ),
      },
    });
  });

  it('GET /catalog: topics, types and versions, consuming groups and their owners', async () => {
    const { status, body } = await get('/catalog');
    expect(status).toBe(200);
    expect(body.asyncapi).toBe('/catalog/asyncapi.json');
    expect(body.types).toContainEqual(
      expect.objectContaining({
        type: 'shop.order.placed.v1',
        name: 'shop.order.placed',
        version: 1,
        topics: ['shop.orders'],
        schema: '/catalog/schemas/shop.order.placed.v1',
        consumers: expect.arrayContaining([
          { group: 'ledger', owner: { team: 'finance', contact: 'finance@example.com' } },
        ]),
      }),
    );
    expect(body.topics).toContainEqual(
      expect.objectContaining({ topic: 'ledger.dlt', kind: 'dead-letters', group: 'ledger' }),
    );
    expect(body.groups).toContainEqual(
      expect.objectContaining({ group: 'ledger', deadLetterTopic: 'ledger.dlt', replayTopic: 'ledger.replay' }),
    );
  });

  it('holds no secret of the deployment', async () => {
    const texts = await Promise.all(
      ['/catalog', '/catalog/asyncapi.json'].map(async (route) => (await get(route)).text),
    );
    for (const secret of [...secrets.standard, ...secrets.stripe, ...secrets.github, secrets.producerToken])
      for (const text of texts) expect(text).not.toContain(secret);
  });
});

describe('the catalogue served by an ingress with KAFKA_NAMESPACE', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress({ KAFKA_NAMESPACE: 'staging.' });
  });

  afterAll(() => ingress.close());

  const get = async (route: string): Promise<any> => (await fetch(`${ingress.adminUrl}${route}`)).json();

  it('names the topics and group ids as the namespaced processes use them', async () => {
    const document = await get('/catalog/asyncapi.json');
    expect(Object.keys(document.channels)).toEqual(Object.keys(committed('asyncapi.json').channels));
    expect(document.info['x-hookrail-namespace']).toBe('staging.');
    expect(document.channels['shop.orders']).toMatchObject({
      address: 'staging.shop.orders',
      bindings: { kafka: { topic: 'staging.shop.orders' } },
    });
    expect(document.channels['ledger.dlt'].address).toBe('staging.ledger.dlt');
    expect(document.operations['ledger.receive.shop.orders'].bindings.kafka.groupId.enum).toEqual(['staging.ledger']);

    const summary = await get('/catalog');
    expect(summary.namespace).toBe('staging.');
    expect(summary.types).toContainEqual(
      expect.objectContaining({ type: 'shop.order.placed.v1', topics: ['staging.shop.orders'] }),
    );
    expect(summary.groups).toContainEqual(
      expect.objectContaining({
        group: 'ledger',
        deadLetterTopic: 'staging.ledger.dlt',
        replayTopic: 'staging.ledger.replay',
      }),
    );
  });

  it('routes POST /events to the namespaced topics the catalogue names', async () => {
    const auth = { authorization: `Bearer ${secrets.producerToken}`, 'content-type': 'application/cloudevents+json' };
    const event = (type: string, data: object) =>
      JSON.stringify({ specversion: '1.0', id: randomUUID(), source: '/billing', type, subject: 'ord_ns', data });
    const placed = await post(`${ingress.url}/events`, event('shop.order.placed.v1', orderData('ord_ns')), auth);
    const other = await post(`${ingress.url}/events`, event('billing.invoice.sent.v1', { invoice: 1 }), auth);
    expect([placed.status, other.status]).toEqual([202, 202]);
    const rows = await ingress.query<{ event_id: string; topic: string }>(
      'SELECT event_id, topic FROM outbox WHERE event_id = ANY($1::uuid[])',
      [[placed.body.id, other.body.id]],
    );
    expect(Object.fromEntries(rows.map((row) => [row.event_id, row.topic]))).toEqual({
      [placed.body.id as string]: 'staging.shop.orders',
      [other.body.id as string]: 'staging.hookrail.inbound',
    });
  });
});

describe('an ingress without a catalogue directory', () => {
  it('starts, and /catalog answers 404 saying how to make one', async () => {
    const ingress = await startIngress({ CATALOG_DIR: path.join(__dirname, 'no-such-catalogue') });
    try {
      const response = await fetch(`${ingress.adminUrl}/catalog/asyncapi.json`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: 'not_found',
        message: expect.stringContaining('npm run contracts:export writes it'),
      });
    } finally {
      await ingress.close();
    }
  });
});
