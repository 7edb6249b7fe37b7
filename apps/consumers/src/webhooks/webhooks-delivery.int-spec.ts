import { Closable } from '@app/config';
import { orderEvent, produce, waitFor } from '@app/testing';
import { replayDelivery, rotateWebhookSecret, showDelivery } from '@app/webhooks';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import {
  addEndpoint,
  adminContext,
  attemptLog,
  deliveryIn,
  deliveryOf,
  webhooksEnv,
} from './testing/webhooks-fixtures';

describe('outbound webhooks: signed deliveries, retries, refusals (real Kafka, Postgres and HTTP receivers)', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable | undefined;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('webhooks-delivery', 'webhooks');
    receiver = await WebhookReceiver.start();
    consumers = await bed.startConsumers(webhooksEnv());
  });

  afterAll(async () => {
    await consumers?.close();
    await receiver?.close();
    await bed?.stop();
  });

  it('signs every delivery with every active secret: receivers verify before, during and after a rotation', async () => {
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/signed'), {
      eventTypes: ['shop.order.placed.v1'],
    });
    const first = orderEvent('ord-signed-1');
    await produce(bed.kafka, bed.topic, [first]);
    await deliveryIn(bed.dataSource, first.id, endpoint.id, 'delivered');
    const [before] = receiver.requestsFor(first.id, '/signed');
    expect(before.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': first.id,
      'ce-id': first.id,
      'ce-hookrailid': first.id,
      'ce-type': 'shop.order.placed.v1',
      'ce-source': '/tests',
      'ce-subject': 'ord-signed-1',
    });
    expect(WebhookReceiver.verify(before, endpoint.secret)).toEqual(first.data);

    const { secret: rotated } = await rotateWebhookSecret(
      adminContext(bed.dataSource),
      endpoint.id,
      { overlapSeconds: 3600 },
      'test',
    );
    const during = orderEvent('ord-signed-2');
    await produce(bed.kafka, bed.topic, [during]);
    await deliveryIn(bed.dataSource, during.id, endpoint.id, 'delivered');
    const [overlap] = receiver.requestsFor(during.id, '/signed');
    expect(overlap.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(WebhookReceiver.verify(overlap, endpoint.secret)).toEqual(during.data);
    expect(WebhookReceiver.verify(overlap, rotated)).toEqual(during.data);
    const key = Buffer.from(rotated.slice('whsec_'.length), 'base64');
    key[0] ^= 1;
    const tampered = `whsec_${key.toString('base64')}`;
    expect(() => WebhookReceiver.verify(overlap, tampered)).toThrow('No matching signature found');
    expect(() =>
      WebhookReceiver.verify({ ...overlap, body: overlap.body.replace('ord-signed-2', 'ord-forged') }, rotated),
    ).toThrow('No matching signature found');

    await rotateWebhookSecret(adminContext(bed.dataSource), endpoint.id, { overlapSeconds: 0 }, 'test');
    const after = orderEvent('ord-signed-3');
    await produce(bed.kafka, bed.topic, [after]);
    await deliveryIn(bed.dataSource, after.id, endpoint.id, 'delivered');
    const [last] = receiver.requestsFor(after.id, '/signed');
    expect(last.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => WebhookReceiver.verify(last, endpoint.secret)).toThrow('No matching signature found');
    expect(() => WebhookReceiver.verify(last, rotated)).toThrow('No matching signature found');
  });

  it("sends a producer's own id as ce-id; webhook-id and ce-hookrailid stay hookrail's, unique per event", async () => {
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/producer-id'), {
      eventTypes: ['shop.order.placed.v1'],
    });
    // Two producers that both called their event evt-123: two events, two deliveries.
    const billing = { ...orderEvent('ord-producer-1', { source: '/billing' }), producerId: 'evt-123' };
    const crm = { ...orderEvent('ord-producer-2', { source: '/crm' }), producerId: 'evt-123' };
    await produce(bed.kafka, bed.topic, [billing, crm]);
    for (const event of [billing, crm]) {
      await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered');
      const [request] = receiver.requestsFor(event.id, '/producer-id');
      expect(request.headers).toMatchObject({
        'webhook-id': event.id,
        'ce-id': 'evt-123',
        'ce-hookrailid': event.id,
        'ce-source': event.source,
      });
      expect(WebhookReceiver.verify(request, endpoint.secret)).toEqual(event.data);
    }
  });

  it('routes by exact type and by prefix, one delivery per matching endpoint', async () => {
    const exact = await addEndpoint(bed.dataSource, receiver.url('/exact'), { eventTypes: ['shop.order.paid.v1'] });
    const prefix = await addEndpoint(bed.dataSource, receiver.url('/prefix'), { eventTypes: ['shop.order.*'] });
    const everything = await addEndpoint(bed.dataSource, receiver.url('/all'), { eventTypes: ['*'] });
    const placed = orderEvent('ord-route-1');
    const paid = orderEvent('ord-route-1', {
      type: 'shop.order.paid.v1',
      data: { paymentId: 'pay_1', paidAt: new Date().toISOString() },
    });
    // A type without a schema goes out too, its data as it came.
    const other = { ...orderEvent('acme-1', { type: 'acme.thing.happened.v1' }), data: { free: 'form' } };
    await produce(bed.kafka, bed.topic, [placed, paid, other]);
    await deliveryIn(bed.dataSource, other.id, everything.id, 'delivered');
    await deliveryIn(bed.dataSource, paid.id, exact.id, 'delivered');
    await deliveryIn(bed.dataSource, paid.id, prefix.id, 'delivered');
    await deliveryIn(bed.dataSource, placed.id, prefix.id, 'delivered');
    const routed = await bed.dataSource.query(
      `SELECT e.url, count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.event_id = ANY($1) AND e.id = ANY($2) GROUP BY e.url ORDER BY e.url`,
      [
        [placed.id, paid.id, other.id],
        [exact.id, prefix.id, everything.id],
      ],
    );
    expect(routed).toEqual([
      { url: receiver.url('/all'), n: 3 },
      { url: receiver.url('/exact'), n: 1 },
      { url: receiver.url('/prefix'), n: 2 },
    ]);
    expect(receiver.requestsFor(other.id).map((request) => [request.path, request.body])).toEqual([
      ['/all', '{"free":"form"}'],
    ]);
  });

  it('retries 500, 500, 500 and delivers on the 4th attempt; a replay is deduped by the receiver', async () => {
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/flaky'));
    receiver.respond((request, attempt) =>
      request.path === '/flaky' && attempt <= 3 ? { status: 500, body: `try ${attempt} failed` } : { status: 200 },
    );
    const event = orderEvent('ord-flaky');
    await produce(bed.kafka, bed.topic, [event]);
    const delivered = await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered');
    expect(delivered.attempts).toBe(4);
    expect(await attemptLog(bed.dataSource, delivered.id)).toEqual([
      { attempt: 1, status: 500, error: 'HTTP 500' },
      { attempt: 2, status: 500, error: 'HTTP 500' },
      { attempt: 3, status: 500, error: 'HTTP 500' },
      { attempt: 4, status: 200, error: null },
    ]);
    const [{ response_body }] = await bed.dataSource.query(
      `SELECT response_body FROM webhook_delivery_attempts WHERE delivery_id = $1 AND attempt = 2`,
      [delivered.id],
    );
    expect(response_body).toBe('try 2 failed');

    await replayDelivery(adminContext(bed.dataSource), endpoint.id, delivered.id, 'test');
    await waitFor(() => receiver.requestsFor(event.id, '/flaky').length === 5, { what: 'the replay sent' });
    expect(await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered')).toMatchObject({ replay_count: 1 });
    expect(receiver.requestsFor(event.id, '/flaky').map((request) => request.webhookId)).toEqual(
      Array(5).fill(event.id),
    );
    expect(receiver.effectsAt('/flaky')).toEqual([event.id]);
    receiver.respond(() => ({ status: 200 }));
  });

  it('logs every attempt the receiver has seen, from its start; a replay asked meanwhile goes after it', async () => {
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/watched'), {
      eventTypes: ['shop.order.placed.v1'],
    });
    receiver.respond((request, attempt) =>
      request.path === '/watched' ? { status: attempt === 1 ? 500 : 200, delayMs: 300 } : { status: 200 },
    );
    const event = orderEvent('ord-watched');
    await produce(bed.kafka, bed.topic, [event]);
    // Read what the receiver has seen first, the log second: the log must never be behind.
    const behind = new Set<string>();
    await waitFor(
      async () => {
        const seen = receiver.requestsFor(event.id, '/watched');
        const row = await deliveryOf(bed.dataSource, event.id, endpoint.id);
        const log = row ? await attemptLog(bed.dataSource, row.id) : [];
        if (log.length < seen.length) behind.add(`receiver saw ${seen.length}, log shows ${log.length}`);
        return row?.state === 'delivered';
      },
      { what: 'the delivery delivered', intervalMs: 10 },
    );
    expect([...behind]).toEqual([]);

    receiver.respond((request) => (request.path === '/watched' ? { status: 200, delayMs: 300 } : { status: 200 }));
    const row = (await deliveryOf(bed.dataSource, event.id, endpoint.id))!;
    await replayDelivery(adminContext(bed.dataSource), endpoint.id, row.id, 'test');
    await waitFor(() => receiver.inFlightAt('/watched') === 1, { what: 'the replay in flight' });
    const during = await showDelivery(adminContext(bed.dataSource), endpoint.id, row.id);
    expect(during).toMatchObject({ state: 'sending', attempts: 1, replayCount: 1 });
    expect(during.attemptLog.map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [1, 500],
      [2, 200],
      [1, null],
    ]);
    // Asked while that attempt is in flight: it goes again once the attempt is over, not "already queued".
    expect(await replayDelivery(adminContext(bed.dataSource), endpoint.id, row.id, 'test')).toMatchObject({
      replayed: [row.id],
    });
    await waitFor(() => receiver.requestsFor(event.id, '/watched').length === 4, { what: 'the second replay sent' });
    expect(await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered')).toMatchObject({ replay_count: 2 });
    expect((await attemptLog(bed.dataSource, row.id)).map((attempt) => [attempt.attempt, attempt.status])).toEqual([
      [1, 500],
      [2, 200],
      [1, 200],
      [1, 200],
    ]);
    receiver.respond(() => ({ status: 200 }));
  });

  it('records a signing secret that is not base64 as a failed attempt that says which secret and what to do', async () => {
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/bad-secret'));
    // Secrets are made by hookrail; one written by hand (or damaged) is the only way to get a malformed one.
    await bed.dataSource.query(
      `UPDATE webhook_endpoint_secrets SET secret = 'whsec_not base64' WHERE endpoint_id = $1`,
      [endpoint.id],
    );
    const event = orderEvent('ord-bad-secret');
    await produce(bed.kafka, bed.topic, [event]);
    const failed = await deliveryIn(bed.dataSource, event.id, endpoint.id, 'failed');
    expect(await attemptLog(bed.dataSource, failed.id)).toEqual(
      Array.from({ length: 4 }, (_, i) => ({
        attempt: i + 1,
        status: null,
        error:
          'signing secret 1 of 1 (newest first) is not a Standard Webhooks signing secret: character 10 is white space; ' +
          `replace it: hookrail endpoints rotate-secret ${endpoint.id} --overlap 0`,
      })),
    );
    expect(receiver.requests.filter((request) => request.path === '/bad-secret')).toEqual([]);
  });

  it('never follows a redirect, not even to the same receiver', async () => {
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/moved'));
    receiver.respond((request) =>
      request.path === '/moved' ? { status: 302, headers: { location: 'http://10.0.0.1/internal' } } : { status: 200 },
    );
    const event = orderEvent('ord-redirect');
    await produce(bed.kafka, bed.topic, [event]);
    const failed = await deliveryIn(bed.dataSource, event.id, endpoint.id, 'failed');
    expect(await attemptLog(bed.dataSource, failed.id)).toEqual(
      Array.from({ length: 4 }, (_, i) => ({
        attempt: i + 1,
        status: 302,
        error: 'HTTP 302: redirects are not followed (to http://10.0.0.1/internal)',
      })),
    );
    expect(receiver.requests.filter((request) => request.path === '/internal')).toEqual([]);
    receiver.respond(() => ({ status: 200 }));
  });

  it('checks the URL again at every delivery: without the allow-list, a loopback receiver is refused', async () => {
    await consumers?.close();
    // The receiver's port is allowed, so that what refuses it is the address rule itself.
    consumers = await bed.startConsumers(
      webhooksEnv({ OUTBOUND_WEBHOOKS_ALLOW_HOSTS: '', OUTBOUND_WEBHOOKS_ALLOW_PORTS: String(receiver.port) }),
    );
    try {
      const endpoint = await addEndpoint(bed.dataSource, receiver.url('/refused'));
      const event = orderEvent('ord-refused');
      await produce(bed.kafka, bed.topic, [event]);
      const failed = await deliveryIn(bed.dataSource, event.id, endpoint.id, 'failed');
      const log = await attemptLog(bed.dataSource, failed.id);
      expect(log).toHaveLength(4);
      expect(log[0]).toEqual({
        attempt: 1,
        status: null,
        error:
          'URL refused: 127.0.0.1 is a loopback address (127.0.0.0/8); such addresses are reachable only through OUTBOUND_WEBHOOKS_ALLOW_HOSTS',
      });
      expect(receiver.requests.filter((request) => request.path === '/refused')).toEqual([]);
    } finally {
      await consumers.close();
      consumers = await bed.startConsumers(webhooksEnv());
    }
  });
});
