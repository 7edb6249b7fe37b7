import { Closable } from '@app/config';
import { orderEvent, produce, waitFor } from '@app/testing';
import { disableWebhookEndpoint, enableWebhookEndpoint, showWebhookEndpoint } from '@app/webhooks';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import { addEndpoint, adminContext, deliveryIn, deliveryOf, webhooksEnv } from './testing/webhooks-fixtures';

describe('outbound webhooks: disabled endpoints (410 Gone, failing too long) and their waiting deliveries', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable | undefined;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('webhooks-disable', 'webhooks');
    receiver = await WebhookReceiver.start();
    consumers = await bed.startConsumers(
      webhooksEnv({ OUTBOUND_WEBHOOKS_RETRY_SCHEDULE: '0,1s,1s,1s', OUTBOUND_WEBHOOKS_DISABLE_AFTER: '1500ms' }),
    );
  });

  afterAll(async () => {
    await consumers?.close();
    await receiver?.close();
    await bed?.stop();
  });

  /** An event only the `/alive` endpoint takes, delivered: proof that the workers went round meanwhile. */
  async function workersWentRound(alive: { id: string }) {
    const marker = orderEvent(`ord-marker-${Date.now()}`, {
      type: 'shop.order.cancelled.v1',
      data: { reason: 'marker', cancelledAt: new Date().toISOString() },
    });
    await produce(bed.kafka, bed.topic, [marker]);
    await deliveryIn(bed.dataSource, marker.id, alive.id, 'delivered');
  }

  it('disables an endpoint that answers 410 at once: no further attempts; enabled again, its deliveries go', async () => {
    const alive = await addEndpoint(bed.dataSource, receiver.url('/alive'), {
      eventTypes: ['shop.order.cancelled.v1'],
    });
    const gone = await addEndpoint(bed.dataSource, receiver.url('/gone'), {
      eventTypes: ['shop.order.placed.v1'],
      maxInFlight: 1,
    });
    receiver.respond((request) => (request.path === '/gone' ? { status: 410 } : { status: 200 }));
    const events = [orderEvent('ord-gone-1'), orderEvent('ord-gone-2'), orderEvent('ord-gone-3')];
    await produce(bed.kafka, bed.topic, events);
    const disabled = await waitFor(
      async () => {
        const endpoint = await showWebhookEndpoint(adminContext(bed.dataSource), gone.id);
        return endpoint.state === 'disabled' ? endpoint : undefined;
      },
      { what: 'the endpoint disabled' },
    );
    expect(disabled).toMatchObject({
      disabledReason: 'the endpoint answered 410 Gone',
      queue: { pending: 3, sending: 0 },
    });

    await workersWentRound(alive);
    const whileDisabled = orderEvent('ord-gone-4');
    await produce(bed.kafka, bed.topic, [whileDisabled]);
    await workersWentRound(alive);
    expect(receiver.requests.filter((request) => request.path === '/gone')).toHaveLength(1);
    const waiting = await Promise.all(events.map((event) => deliveryOf(bed.dataSource, event.id, gone.id)));
    expect(waiting.map((row) => [row?.state, row?.attempts])).toEqual([
      ['pending', 1],
      ['pending', 0],
      ['pending', 0],
    ]);
    expect(await deliveryOf(bed.dataSource, whileDisabled.id, gone.id)).toMatchObject({
      state: 'pending',
      attempts: 0,
    });

    receiver.respond(() => ({ status: 200 }));
    await enableWebhookEndpoint(adminContext(bed.dataSource), gone.id, 'test');
    for (const event of [...events, whileDisabled]) await deliveryIn(bed.dataSource, event.id, gone.id, 'delivered');
    expect(receiver.effectsAt('/gone')).toEqual([...events, whileDisabled].map((event) => event.id));
  });

  it('keeps the events that arrive while an operator has the endpoint disabled and sends them in order, once, when enabled', async () => {
    const alive = await addEndpoint(bed.dataSource, receiver.url('/alive-2'), {
      eventTypes: ['shop.order.cancelled.v1'],
    });
    const paused = await addEndpoint(bed.dataSource, receiver.url('/migrating'), {
      eventTypes: ['shop.order.placed.v1'],
      maxInFlight: 1,
    });
    receiver.respond(() => ({ status: 200 }));
    await disableWebhookEndpoint(adminContext(bed.dataSource), paused.id, { reason: 'receiver migrating' }, 'test');
    const events = Array.from({ length: 12 }, (_, i) => orderEvent(`ord-paused-${i % 3}`));
    await produce(bed.kafka, bed.topic, events);
    await workersWentRound(alive);
    expect(receiver.requests.filter((request) => request.path === '/migrating')).toEqual([]);
    expect((await showWebhookEndpoint(adminContext(bed.dataSource), paused.id)).queue).toEqual({
      pending: events.length,
      sending: 0,
    });

    await enableWebhookEndpoint(adminContext(bed.dataSource), paused.id, 'test');
    for (const event of events) await deliveryIn(bed.dataSource, event.id, paused.id, 'delivered');
    const arrived = receiver.requests.filter((request) => request.path === '/migrating');
    expect(arrived.map((request) => request.webhookId)).toEqual(events.map((event) => event.id));
  });

  it('disables an endpoint whose every attempt failed for the configured period; its deliveries wait, not fail', async () => {
    const broken = await addEndpoint(bed.dataSource, receiver.url('/broken'), { eventTypes: ['shop.order.placed.v1'] });
    receiver.respond((request) => (request.path === '/broken' ? { status: 500 } : { status: 200 }));
    const event = orderEvent('ord-broken');
    await produce(bed.kafka, bed.topic, [event]);
    const disabled = await waitFor(
      async () => {
        const endpoint = await showWebhookEndpoint(adminContext(bed.dataSource), broken.id);
        return endpoint.state === 'disabled' ? endpoint : undefined;
      },
      { what: 'the failing endpoint disabled', timeoutMs: 15_000 },
    );
    expect(disabled.disabledReason).toMatch(/^every attempt failed since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const waiting = await deliveryOf(bed.dataSource, event.id, broken.id);
    expect(waiting).toMatchObject({ state: 'pending', last_status: 500 });
    expect(waiting!.attempts).toBeLessThan(4);
    expect(
      await bed.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'failed'`),
    ).toEqual([{ n: 0 }]);

    receiver.respond(() => ({ status: 200 }));
    await enableWebhookEndpoint(adminContext(bed.dataSource), broken.id, 'test');
    await deliveryIn(bed.dataSource, event.id, broken.id, 'delivered');
    expect((await showWebhookEndpoint(adminContext(bed.dataSource), broken.id)).failingSince).toBeNull();
  });
});
