import { randomUUID } from 'node:crypto';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

/** The customer an event belongs to travels as its `customerid` attribute, the outbox row's `ce_customerid` header. */
describe('the customer of an event (customerid)', () => {
  let ingress: Ingress;
  const cloudEventHeaders = () => ({
    authorization: `Bearer ${secrets.producerToken}`,
    'content-type': 'application/cloudevents+json',
  });
  const headersOf = async (eventId: unknown) =>
    (
      await ingress.query<{ headers: Record<string, string> }>('SELECT headers FROM outbox WHERE event_id = $1', [
        eventId,
      ])
    )[0].headers;
  const sendWebhook = (body: Record<string, unknown>) => {
    const payload = JSON.stringify({ type: 'shop.order.placed.v1', timestamp: new Date().toISOString(), ...body });
    return post(`${ingress.url}/webhooks/shop`, payload, standardHeaders(secrets.standard[0], randomUUID(), payload));
  };

  beforeAll(async () => {
    ingress = await startIngress();
  });

  afterAll(() => ingress.close());

  it("takes a webhook's customer from the source's customerIdPath, a number as its text, none when absent", async () => {
    const named = await sendWebhook({ tenant: { uid: 'acme-eu' }, data: orderData() });
    const numbered = await sendWebhook({ tenant: { uid: 4242 }, data: orderData() });
    const none = await sendWebhook({ data: orderData() });
    expect([named.status, numbered.status, none.status]).toEqual([202, 202, 202]);

    expect(await headersOf(named.body.id)).toMatchObject({ ce_customerid: 'acme-eu', ce_type: 'shop.order.placed.v1' });
    expect((await headersOf(numbered.body.id)).ce_customerid).toBe('4242');
    expect((await headersOf(none.body.id)).ce_customerid).toBeUndefined();
  });

  it("keeps a CloudEvent's customerid, in structured and binary mode", async () => {
    const structured = await post(
      `${ingress.url}/events`,
      JSON.stringify({
        specversion: '1.0',
        id: randomUUID(),
        source: '/billing',
        type: 'shop.order.placed.v1',
        customerid: 'org:acme/eu@1',
        data: orderData(),
      }),
      cloudEventHeaders(),
    );
    const binary = await post(`${ingress.url}/events`, JSON.stringify({ seats: 3 }), {
      authorization: `Bearer ${secrets.producerToken}`,
      'content-type': 'application/json',
      'ce-specversion': '1.0',
      'ce-id': randomUUID(),
      'ce-source': '/crm',
      'ce-type': 'crm.account.updated.v1',
      'ce-customerid': 'globex',
    });
    expect([structured.status, binary.status]).toEqual([202, 202]);
    expect((await headersOf(structured.body.id)).ce_customerid).toBe('org:acme/eu@1');
    expect((await headersOf(binary.body.id)).ce_customerid).toBe('globex');
  });

  it('answers 400 naming the customer id for a bad one, and writes nothing', async () => {
    const before = await ingress.count('inbound_events');
    const cloudEvent = (customerid: unknown) =>
      post(
        `${ingress.url}/events`,
        JSON.stringify({ specversion: '1.0', id: randomUUID(), source: '/billing', type: 'x.y', customerid, data: {} }),
        cloudEventHeaders(),
      );
    for (const bad of ['', 'a b', 'x'.repeat(201), 'ümlaut']) {
      const response = await cloudEvent(bad);
      expect(response).toMatchObject({ status: 400, body: { message: expect.stringContaining('customerid') } });
    }
    const webhook = await sendWebhook({ tenant: { uid: 'no spaces allowed' }, data: orderData() });
    expect(webhook).toMatchObject({ status: 400, body: { message: expect.stringContaining('tenant.uid') } });
    expect(await ingress.count('inbound_events')).toBe(before);
    expect(await ingress.count('outbox')).toBe(before);
  });
});
