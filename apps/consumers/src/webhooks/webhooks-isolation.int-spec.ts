import { Closable } from '@app/config';
import { orderEvent, produce, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import { addEndpoint, webhooksEnv } from './testing/webhooks-fixtures';

const HANG_MS = 6_000;

describe('outbound webhooks: a slow endpoint never holds up the others; rate limits', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable | undefined;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('webhooks-isolation', 'webhooks');
    receiver = await WebhookReceiver.start();
    consumers = await bed.startConsumers(
      webhooksEnv({
        OUTBOUND_WEBHOOKS_TIMEOUT_MS: String(HANG_MS),
        OUTBOUND_WEBHOOKS_LEASE_MS: String(HANG_MS + 2_000),
        OUTBOUND_WEBHOOKS_WORKERS: '16',
        OUTBOUND_WEBHOOKS_ENDPOINT_CONCURRENCY: '4',
      }),
    );
  });

  afterAll(async () => {
    await consumers?.close();
    await receiver?.close();
    await bed?.stop();
  });

  it('delivers to a fast endpoint while another one hangs, which holds only its own in-flight cap', async () => {
    await addEndpoint(bed.dataSource, receiver.url('/hang'), { eventTypes: ['shop.order.placed.v1'] });
    await addEndpoint(bed.dataSource, receiver.url('/fast'), { eventTypes: ['shop.order.placed.v1'] });
    receiver.respond((request) => (request.path === '/hang' ? { hang: true } : { status: 200 }));
    const events = Array.from({ length: 40 }, (_, i) => orderEvent(`ord-iso-${i}`));
    const producedAt = Date.now();
    await produce(bed.kafka, bed.topic, events);

    await waitFor(() => receiver.effectsAt('/fast').length === events.length, {
      what: 'every event at the fast endpoint',
      timeoutMs: HANG_MS,
    });
    const fastLatencies = events.map((event) => receiver.requestsFor(event.id, '/fast')[0].at - producedAt);
    const slowest = Math.max(...fastLatencies);
    // Measured: the fast endpoint had everything well before the hanging one's first attempt could even time out;
    // the hanging endpoint holds exactly its cap (4) of the 16 workers, every one of them still waiting.
    expect(slowest).toBeLessThan(HANG_MS / 2);
    expect(receiver.requests.filter((request) => request.path === '/hang')).toHaveLength(4);
    expect(receiver.effectsAt('/hang')).toEqual([]);
    const [{ sending }] = await bed.dataSource.query(
      `SELECT count(*)::int AS sending FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE e.url = $1 AND d.state = 'sending'`,
      [receiver.url('/hang')],
    );
    expect(sending).toBe(4);
    await bed.dataSource.query(`UPDATE webhook_endpoints SET state = 'disabled' WHERE url = $1`, [
      receiver.url('/hang'),
    ]);
  });

  it('keeps a rate-limited endpoint at its rate', async () => {
    await addEndpoint(bed.dataSource, receiver.url('/limited'), {
      eventTypes: ['shop.order.paid.v1'],
      rateLimitPerSecond: 5,
    });
    receiver.respond(() => ({ status: 200 }));
    const events = Array.from({ length: 15 }, (_, i) =>
      orderEvent(`ord-rate-${i}`, {
        type: 'shop.order.paid.v1',
        data: { paymentId: `pay_${i}`, paidAt: new Date().toISOString() },
      }),
    );
    await produce(bed.kafka, bed.topic, events);
    await waitFor(() => receiver.effectsAt('/limited').length === events.length, {
      what: 'every event at the rate-limited endpoint',
      timeoutMs: 15_000,
    });
    const times = receiver.requests.filter((request) => request.path === '/limited').map((request) => request.at);
    // A bucket of 5 tokens refilled at 5 per second, starting empty: 15 deliveries need about 3 s, and no second
    // can hold more than the bucket plus its refill.
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(1_800);
    const busiestSecond = Math.max(
      ...times.map((start) => times.filter((t) => t >= start && t < start + 1_000).length),
    );
    expect(busiestSecond).toBeLessThanOrEqual(10);
  });
});
