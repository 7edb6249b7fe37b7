import fc from 'fast-check';
import { Ingress, post, secrets, startIngress } from './ingress-harness';
import { standardHeaders } from './signing';

const printable = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_.:;,=/ +'.split('')),
  maxLength: 60,
});

/** Bodies that are never a valid event: raw bytes, non-objects, or objects whose known type has random data. */
const malformedBody = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ maxLength: 200 }).map((text) => Buffer.from(text)),
  fc
    .oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 5 }))
    .map((value) => Buffer.from(JSON.stringify(value))),
  fc
    .record({
      type: fc.constantFrom(
        'shop.order.placed.v1',
        'shop.order.paid.v1',
        'shop.order.cancelled.v1',
        '',
        ' ',
        'bad type!',
      ),
      data: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue(), { maxKeys: 6 })),
    })
    .map((event) => Buffer.from(JSON.stringify(event))),
);

const request = fc.record({
  body: malformedBody,
  /** Signed correctly (so validation is reached), signed wrongly, or with random signature headers. */
  signing: fc.constantFrom('valid', 'wrong', 'random'),
  contentType: fc.oneof(fc.constant('application/json'), fc.constant('application/cloudevents+json'), printable),
  webhookId: printable,
  timestamp: fc.oneof(printable, fc.integer({ min: 0, max: 4_000_000_000 }).map(String)),
  signature: printable,
  source: fc.constantFrom('shop', 'stripe', 'github', 'nope'),
});

describe('malformed bodies and headers (property-based)', () => {
  let ingress: Ingress;

  beforeAll(async () => {
    ingress = await startIngress();
  });

  afterAll(() => ingress.close());

  it('1,000 random malformed requests: only 4xx, not one row written, and the app stays healthy', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const body = input.body.toString('utf8');
        // A correctly signed delivery goes to the standard-webhooks source as JSON, so it reaches parsing and validation.
        const valid = input.signing === 'valid';
        const source = valid ? 'shop' : input.source;
        const signed = valid
          ? {
              ...standardHeaders(secrets.standard[0], input.webhookId || 'id', body),
              'content-type': 'application/json',
            }
          : {};
        const headers: Record<string, string> = {
          'webhook-id': input.webhookId,
          'webhook-timestamp': input.timestamp,
          'webhook-signature': input.signing === 'wrong' ? `v1,${input.signature}` : input.signature,
          'stripe-signature': `t=${input.timestamp},v1=${input.signature}`,
          'x-hub-signature-256': `sha256=${input.signature}`,
          'x-github-delivery': input.webhookId,
          'content-type': input.contentType,
          ...signed,
        };
        const response = await post(`${ingress.url}/webhooks/${source}`, input.body, headers).catch(async () => {
          const raw = await fetch(`${ingress.url}/webhooks/${source}`, { method: 'POST', headers, body: input.body });
          return { status: raw.status, body: {} as Record<string, unknown> };
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(typeof response.body.error).toBe('string');
      }),
      { numRuns: 1000 },
    );
    expect(await ingress.count('inbound_events')).toBe(0);
    expect(await ingress.count('outbox')).toBe(0);
    expect((await fetch(`${ingress.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${ingress.url}/readyz`)).status).toBe(200);
    // The property reached past the signature check: validation errors happened, not only 401s.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(150);
  });
});
