import { freePort, orderEvent, produce, TestProcesses, waitFor } from '@app/testing';
import { deleteWebhookEndpoint } from '@app/webhooks';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import { addEndpoint, adminContext, deliveryIn, deliveryOf, webhooksEnv } from './testing/webhooks-fixtures';

describe('outbound webhooks: a delivery worker killed mid-request (kill -9) or cut from its session', () => {
  let bed: ConsumersTestBed;
  let receiver: WebhookReceiver;
  const processes = new TestProcesses();

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('webhooks-crash', 'webhooks');
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await processes.killAll();
    await receiver?.close();
    await bed?.stop();
  });

  it('stops the attempts in hand when its workers lose their session, and sends them again under a new one', async () => {
    const consumers = await bed.startConsumers(webhooksEnv({ OUTBOUND_WEBHOOKS_LEASE_MS: '30000' }));
    try {
      const endpoint = await addEndpoint(bed.dataSource, receiver.url('/session'));
      receiver.respond((request, attempt) =>
        request.path === '/session' && attempt === 1 ? { hang: true } : { status: 200 },
      );
      const event = orderEvent('ord-session-lost');
      await produce(bed.kafka, bed.topic, [event]);
      const first = await waitFor(() => receiver.requestsFor(event.id, '/session')[0], {
        what: 'the first attempt in flight',
      });
      await bed.dataSource.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'hookrail-webhook-listener'`,
      );
      // The hanging request is given up (its lease owner is gone, so it is another's now), and sent again.
      await waitFor(() => first.doneAt, { what: 'the first request closed by the sender' });
      const delivered = await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered', 10_000);
      expect(receiver.requestsFor(event.id, '/session')).toHaveLength(2);
      expect(delivered.attempts).toBeLessThanOrEqual(2);
      await deleteWebhookEndpoint(adminContext(bed.dataSource), endpoint.id, 'test');
    } finally {
      await consumers.close();
    }
  });

  it('hands the delivery to the surviving process as soon as the dead one is gone, long before its lease ends', async () => {
    // The default 30 s lease: what brings the delivery back sooner is the dead process's database session ending.
    const env = bed.processEnv(
      webhooksEnv({ OUTBOUND_WEBHOOKS_TIMEOUT_MS: '15000', OUTBOUND_WEBHOOKS_LEASE_MS: '30000' }),
    );
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/crash'));
    // The first request is never answered: its worker is killed while it waits.
    receiver.respond((request, attempt) =>
      request.path === '/crash' && attempt === 1 ? { hang: true } : { status: 200 },
    );
    const ports = [await freePort(), await freePort()];
    const both = ports.map((port) => processes.start('consumers', { ...env, METRICS_PORT: String(port) }));
    await Promise.all(both.map((child) => child.waitForLog('webhook delivery workers running')));
    const event = orderEvent('ord-crash-webhook');
    await produce(bed.kafka, bed.topic, [event]);

    await waitFor(() => receiver.inFlightAt('/crash') === 1, { what: 'the first attempt in flight' });
    const [{ claimed_by: claimedBy }] = await bed.dataSource.query(
      `SELECT claimed_by FROM webhook_deliveries WHERE event_id = $1`,
      [event.id],
    );
    const doomedIndex = both.findIndex((child) => claimedBy.endsWith(`/${child.child.pid}`));
    const [doomed, survivor] = doomedIndex === 0 ? both : [both[1], both[0]];
    expect(await deliveryOf(bed.dataSource, event.id, endpoint.id)).toMatchObject({ state: 'sending', attempts: 1 });
    const killedAt = Date.now();
    doomed.signal('SIGKILL');
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const resent = await waitFor(() => receiver.requestsFor(event.id, '/crash')[1], {
      what: 'the delivery sent again',
      timeoutMs: 10_000,
    });
    // Measured: about 1 s (the survivor looks for the leases of gone processes every second); the lease alone took 30 s.
    expect(resent.at - killedAt).toBeLessThan(5_000);
    const delivered = await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered');
    expect(delivered.attempts).toBe(2);
    const [first, second] = receiver.requestsFor(event.id, '/crash');
    expect([first.webhookId, second.webhookId]).toEqual([event.id, event.id]);
    expect(second.body).toBe(first.body);
    const log = await bed.dataSource.query(
      `SELECT attempt, status, error, worker FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY id`,
      [delivered.id],
    );
    expect(log).toEqual([
      {
        attempt: 1,
        status: null,
        error: 'the worker process is gone (its database session ended) before this attempt finished',
        worker: expect.stringContaining(`/${doomed.child.pid}`),
      },
      { attempt: 2, status: 200, error: null, worker: expect.stringContaining(`/${survivor.child.pid}`) },
    ]);
    expect(receiver.effectsAt('/crash')).toEqual([event.id]);
    // Effectively once on the way in: the event's one delivery row, whatever the restarts.
    expect(
      await bed.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1`, [event.id]),
    ).toEqual([{ n: 1 }]);
    const metricsPort = ports[both.indexOf(survivor)];
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const endpointLabel = `endpoint="${endpoint.id}"`;
    expect(metrics).toContain(`hookrail_webhook_deliveries_total{${endpointLabel},outcome="delivered"} 1`);
    expect(metrics).toContain(`hookrail_webhook_delivery_seconds_count{${endpointLabel}} 1`);
    expect(metrics).toMatch(/^hookrail_webhook_lease_expiries_total 1$/m);
    expect(metrics).toMatch(/^hookrail_webhook_endpoints_disabled 0$/m);
    expect(metrics).toMatch(/^# TYPE hookrail_webhook_queue_depth gauge$/m);

    survivor.signal('SIGTERM');
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
  });
});
