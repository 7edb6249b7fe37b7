import { Closable } from '@app/config';
import { toKafkaRecord } from '@app/contracts';
import { orderEvent, produce, waitFor } from '@app/testing';
import { Producer } from 'kafkajs';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import { addEndpoint, webhooksEnv } from './testing/webhooks-fixtures';

const SLOW_ENDPOINTS = 8;
const SAMPLES = 20;
/** Longer than the test: a slow endpoint's request is never answered, nor timed out, while it runs. */
const TIMEOUT_MS = 120_000;

describe('outbound webhooks: slow endpoints hold their share of the workers, never the pool', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable | undefined;
  let receiver: WebhookReceiver;
  let producer: Producer;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('webhooks-fair-share', 'webhooks');
    receiver = await WebhookReceiver.start();
    // The slow endpoints never answer: a fast endpoint that had to wait for one of them would never be served.
    receiver.respond((request) => (request.path.startsWith('/slow') ? { hang: true } : { status: 200 }));
    // A pool of 64 workers and the default per-endpoint cap (8): eight slow endpoints could take every worker.
    consumers = await bed.startConsumers(
      webhooksEnv({
        OUTBOUND_WEBHOOKS_WORKERS: '64',
        OUTBOUND_WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS),
        OUTBOUND_WEBHOOKS_LEASE_MS: String(2 * TIMEOUT_MS),
      }),
    );
    producer = bed.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await consumers?.close();
    await receiver?.close();
    await bed?.stop();
  });

  /** Events to the fast endpoint one at a time, each waited for at the endpoint. */
  async function sendToFast(label: string): Promise<void> {
    for (let i = 0; i < SAMPLES; i++) {
      const event = orderEvent(`ord-fair-${label}-${i}`, {
        type: 'shop.order.paid.v1',
        data: { paymentId: `pay_${label}_${i}`, paidAt: new Date().toISOString() },
      });
      await producer.send({ topic: bed.topic, acks: -1, messages: [toKafkaRecord(event)] });
      await waitFor(() => receiver.requestsFor(event.id, '/fast')[0], {
        what: `event ${i} at the fast endpoint`,
        timeoutMs: 30_000,
      });
    }
  }

  it('serves a fast endpoint while eight endpoints that never answer hold their share of the workers', async () => {
    await addEndpoint(bed.dataSource, receiver.url('/fast'), { eventTypes: ['shop.order.paid.v1'] });
    await sendToFast('alone');

    const slowPaths = Array.from({ length: SLOW_ENDPOINTS }, (_, i) => `/slow/${i}`);
    for (const path of slowPaths)
      await addEndpoint(bed.dataSource, receiver.url(path), { eventTypes: ['shop.order.placed.v1'] });
    await produce(
      bed.kafka,
      bed.topic,
      Array.from({ length: 100 }, (_, i) => orderEvent(`ord-fair-slow-${i}`)),
    );
    // Every slow endpoint busy with as many requests as it may hold, a backlog behind each.
    await waitFor(() => slowPaths.every((path) => receiver.inFlightAt(path) >= 7), {
      what: 'the slow endpoints busy',
      timeoutMs: 30_000,
    });
    await sendToFast('beside');

    // Served beside them, none of their requests answered: the fast endpoint never waited for a slow one's worker
    // (before shares, eight endpoints at their cap of 8 took all 64 workers). Nine endpoints with work: each may hold
    // 64 / (9 + 1) workers, one share staying free for a newcomer.
    for (const path of slowPaths) expect(receiver.inFlightAt(path)).toBe(7);
    for (const path of slowPaths) expect(receiver.peakInFlightAt(path)).toBeLessThanOrEqual(7);
  });
});
