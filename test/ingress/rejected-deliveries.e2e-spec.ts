import { waitFor } from '@app/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { hookrailInProcess } from '../cli/hookrail-in-process';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders, stripeHeaders } from './signing';

const ADMIN_TOKEN = randomBytes(16).toString('hex');
const KEPT = 3;

/**
 * Senders whose deliveries fail are visible: each rejection counted by source and reason, the newest few per source
 * kept with their headers and a redacted body prefix (never a secret or a signature), and no event row written.
 */
describe('rejected deliveries per source', () => {
  let ingress: Ingress;
  const admin = async (route: string): Promise<{ status: number; body: any; text: string }> => {
    const response = await fetch(`${ingress.adminUrl}${route}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text), text };
  };
  const rejectionsOf = async (source: string, count: number) =>
    (
      await waitFor(
        async () => {
          const { body } = await admin(`/admin/sources/${source}/rejections`);
          return body.rejections?.length >= count ? body : undefined;
        },
        { what: `${count} rejections of ${source}` },
      )
    ).rejections as any[];

  beforeAll(async () => {
    ingress = await startIngress({ ADMIN_TOKEN, REJECTIONS_KEPT_PER_SOURCE: String(KEPT), MAX_BODY_BYTES: '4096' });
  });

  afterAll(() => ingress.close());

  const shopBody = (data: object) =>
    JSON.stringify({ type: 'shop.order.placed.v1', timestamp: new Date().toISOString(), data });

  it('keeps why and what arrived, without secrets, counts by reason, and writes no event', async () => {
    const signatures: string[] = [];
    const signed = (body: string, at?: Date) => {
      const headers = standardHeaders(secrets.standard[0], `msg_${randomUUID()}`, body, at);
      signatures.push(headers['webhook-signature']);
      return headers;
    };
    const valid = shopBody(orderData('ord_rejected'));
    const badSignature = await post(`${ingress.url}/webhooks/shop`, valid, {
      ...signed(valid),
      'webhook-signature': 'v1,AAAA',
    });
    const stale = await post(`${ingress.url}/webhooks/shop`, valid, signed(valid, new Date(Date.now() - 3_600_000)));
    const invalid = shopBody({ ...orderData('ord_bad'), amount: -1, customer: { id: 'c', password: 'hunter2' } });
    const schema = await post(`${ingress.url}/webhooks/shop`, invalid, signed(invalid));
    expect([badSignature.status, stale.status, schema.status]).toEqual([401, 401, 400]);

    const rejections = await rejectionsOf('shop', 3);
    expect(rejections.map(({ status, reason }) => ({ status, reason }))).toEqual([
      { status: 400, reason: 'invalid_event' },
      { status: 401, reason: 'timestamp_outside_tolerance' },
      { status: 401, reason: 'invalid_signature' },
    ]);
    const [schemaError] = rejections;
    expect(schemaError).toMatchObject({
      source: 'shop',
      path: '/webhooks/shop',
      message: 'the data of shop.order.placed.v1 does not match its schema',
      details: { fieldErrors: expect.arrayContaining([expect.objectContaining({ field: 'amount' })]) },
      headers: expect.objectContaining({ 'content-type': 'application/json', 'webhook-id': expect.any(String) }),
      bodyBytes: Buffer.byteLength(invalid),
    });
    expect(JSON.parse(schemaError.bodyPrefix).data.customer).toEqual({ id: 'c', password: '[redacted]' });

    // Nothing secret in what /admin shows: no signature, no signing secret, no password.
    const { text } = await admin('/admin/sources/shop/rejections');
    for (const rejection of rejections) expect(rejection.headers).not.toHaveProperty('webhook-signature');
    for (const secret of [...secrets.standard, ...signatures, 'v1,AAAA', 'hunter2']) expect(text).not.toContain(secret);

    const metrics = await (await fetch(`${ingress.url}/metrics`)).text();
    for (const reason of ['invalid_signature', 'timestamp_outside_tolerance', 'invalid_event'])
      expect(metrics).toContain(`hookrail_ingress_events_rejected_total{source="shop",reason="${reason}"} 1`);

    expect(await ingress.count('inbound_events')).toBe(0);
    expect(await ingress.count('outbox')).toBe(0);
  });

  it('puts unknown source names under one label, POST /events under cloudevents, and a body too large by its length', async () => {
    const names = [`nope-${randomBytes(4).toString('hex')}`, `nope-${randomBytes(4).toString('hex')}`];
    for (const name of names)
      expect((await post(`${ingress.url}/webhooks/${name}`, '{}', { 'content-type': 'application/json' })).status).toBe(
        404,
      );
    const unauthorized = await post(`${ingress.url}/events`, '{}', {
      'content-type': 'application/cloudevents+json',
      authorization: 'Bearer not-a-producer-token-at-all',
    });
    const large = JSON.stringify({ padding: 'x'.repeat(5000) });
    const tooLarge = await post(`${ingress.url}/webhooks/stripe`, large, stripeHeaders(secrets.stripe[0], large));
    expect([unauthorized.status, tooLarge.status]).toEqual([401, 413]);

    const unknown = await rejectionsOf('unknown', 2);
    expect(unknown.map((rejection) => rejection.path).sort()).toEqual(names.map((name) => `/webhooks/${name}`).sort());
    const [cloudevents] = await rejectionsOf('cloudevents', 1);
    expect(cloudevents).toMatchObject({ status: 401, reason: 'unauthorized' });
    expect(JSON.stringify(cloudevents.headers)).not.toContain('not-a-producer-token');
    const [stripe] = await rejectionsOf('stripe', 1);
    expect(stripe).toMatchObject({ status: 413, reason: 'payload_too_large', bodyBytes: Buffer.byteLength(large) });
    expect(stripe.headers).not.toHaveProperty('stripe-signature');

    const metrics = await (await fetch(`${ingress.url}/metrics`)).text();
    expect(metrics).toContain('hookrail_ingress_events_rejected_total{source="unknown",reason="unknown_source"} 2');
    expect(metrics).toContain('hookrail_ingress_events_rejected_total{source="cloudevents",reason="unauthorized"} 1');
    expect(metrics).toContain('hookrail_ingress_events_rejected_total{source="stripe",reason="payload_too_large"} 1');
    for (const name of names) expect(metrics).not.toContain(name);

    const { body } = await admin('/admin/sources');
    expect(body.keptPerSource).toBe(KEPT);
    expect(body.sources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'shop', kind: 'webhook', scheme: 'standard-webhooks', topic: 'shop.orders' }),
        expect.objectContaining({ source: 'github', kind: 'webhook', kept: 0, lastAt: null }),
        expect.objectContaining({ source: 'unknown', kind: 'unknown', kept: 2, byReason: { unknown_source: 2 } }),
        expect.objectContaining({ source: 'cloudevents', kind: 'cloudevents', kept: 1 }),
      ]),
    );
    expect(await ingress.count('inbound_events')).toBe(0);
  });

  it('keeps only the newest REJECTIONS_KEPT_PER_SOURCE of a source', async () => {
    const sent: string[] = [];
    for (let n = 0; n < KEPT + 2; n++) {
      const delivery = randomUUID();
      sent.push(delivery);
      const response = await post(`${ingress.url}/webhooks/github`, '{"zen":"x"}', {
        'content-type': 'application/json',
        'x-github-delivery': delivery,
        'x-github-event': 'ping',
        'x-hub-signature-256': 'sha256=00',
      });
      expect(response.status).toBe(401);
    }
    await waitFor(
      async () =>
        (await admin('/admin/sources/github/rejections')).body.rejections[0]?.headers['x-github-delivery'] ===
        sent.at(-1),
      { what: 'the last rejection kept' },
    );
    const kept = (await admin('/admin/sources/github/rejections')).body.rejections as any[];
    expect(kept.map((rejection) => rejection.headers['x-github-delivery'])).toEqual(sent.slice(-KEPT).reverse());
    expect(
      Number(
        (await ingress.query<{ n: string }>(`SELECT count(*) AS n FROM source_rejections WHERE source = 'github'`))[0]
          .n,
      ),
    ).toBe(KEPT);
  });

  it('answers 404 for a source it knows nothing of, 400 for a bad limit, 401 without the token', async () => {
    expect(await admin('/admin/sources/no-such-source/rejections')).toMatchObject({
      status: 404,
      body: { error: 'not_found', message: expect.stringContaining('no source "no-such-source"') },
    });
    expect(await admin('/admin/sources/shop/rejections?limit=0')).toMatchObject({
      status: 400,
      body: { message: `limit must be an integer from 1 to ${KEPT}` },
    });
    expect((await fetch(`${ingress.adminUrl}/admin/sources`)).status).toBe(401);
  });

  it('hookrail sources lists the sources with rejections kept, and sources rejections shows one', async () => {
    const hookrail = (...args: string[]) => hookrailInProcess(ingress.database.url, args);
    const list = await hookrail('sources');
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^source\s+kept\s+byReason\s+lastRejected$/);
    expect(list.stdout).toMatch(/^shop\s+3\s+invalid_event ×1, invalid_signature ×1, timestamp_outside_tolerance ×1/m);
    expect(list.stdout).toMatch(/^unknown\s+2\s+unknown_source ×2/m);

    const shop = await hookrail('sources', 'rejections', 'shop', '--limit', '2');
    expect(shop.stdout.split('\n')[0]).toMatch(/^id\s+received\s+answer\s+message\s+path\s+bytes$/);
    expect(
      shop.stdout
        .split('\n')
        .slice(2)
        .map((line) => line.split(/\s{2,}/)[2]),
    ).toEqual(['400 invalid_event', '401 timestamp_outside_tolerance']);
    const json = JSON.parse((await hookrail('sources', 'rejections', 'shop', '--json')).stdout);
    expect(json).toHaveLength(3);
    expect(json[0]).toMatchObject({
      reason: 'invalid_event',
      headers: expect.any(Object),
      bodyPrefix: expect.any(String),
    });
    expect(JSON.stringify(json)).not.toContain(secrets.standard[0]);

    expect(await hookrail('sources', 'rejections')).toMatchObject({
      code: 2,
      stderr: 'hookrail: sources rejections takes one source name',
    });
  });
});
