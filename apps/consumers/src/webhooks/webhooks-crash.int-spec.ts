import { freePort, orderEvent, produce, TestProcesses, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import { addEndpoint, attemptLog, deliveryIn, deliveryOf, webhooksEnv } from './testing/webhooks-fixtures';

describe('outbound webhooks: delivery worker killed mid-request (kill -9)', () => {
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

  it('sends the delivery again after its lease ran out, with the same webhook-id, and records the lost attempt', async () => {
    const env = bed.processEnv(
      webhooksEnv({
        METRICS_PORT: '0',
        OUTBOUND_WEBHOOKS_TIMEOUT_MS: '1500',
        OUTBOUND_WEBHOOKS_LEASE_MS: '2500',
      }),
    );
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/crash'));
    // The first request is never answered: the worker is killed while it waits.
    receiver.respond((_request, attempt) => (attempt === 1 ? { hang: true } : { status: 200 }));
    const doomed = processes.start('consumers', env);
    await doomed.waitForLog('consumers started');
    const event = orderEvent('ord-crash-webhook');
    await produce(bed.kafka, bed.topic, [event]);

    await waitFor(() => receiver.inFlight === 1, { what: 'the first attempt in flight' });
    expect(await deliveryOf(bed.dataSource, event.id, endpoint.id)).toMatchObject({ state: 'sending', attempts: 1 });
    doomed.signal('SIGKILL');
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const metricsPort = await freePort();
    const survivor = processes.start('consumers', { ...env, METRICS_PORT: String(metricsPort) });
    try {
      const delivered = await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered', 30_000);
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
          error: 'the lease ran out: the worker did not finish this attempt (it crashed or stalled)',
          worker: expect.stringContaining(`/${doomed.child.pid}`),
        },
        { attempt: 2, status: 200, error: null, worker: expect.stringContaining(`/${survivor.child.pid}`) },
      ]);
      expect(await attemptLog(bed.dataSource, delivered.id)).toHaveLength(2);
      expect(receiver.effectsAt('/crash')).toEqual([event.id]);
      // Effectively once on the way in: the event's one delivery row, whatever the restarts.
      expect(
        await bed.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1`, [event.id]),
      ).toEqual([{ n: 1 }]);
      await survivor.waitForLog('consumers started');
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const endpointLabel = `endpoint="${endpoint.id}"`;
      expect(metrics).toContain(`hookrail_webhook_deliveries_total{${endpointLabel},outcome="delivered"} 1`);
      expect(metrics).toContain(`hookrail_webhook_delivery_seconds_count{${endpointLabel}} 1`);
      expect(metrics).toMatch(/^hookrail_webhook_lease_expiries_total 1$/m);
      expect(metrics).toMatch(/^hookrail_webhook_endpoints_disabled 0$/m);
      expect(metrics).toMatch(/^# TYPE hookrail_webhook_queue_depth gauge$/m);
    } finally {
      survivor.signal('SIGTERM');
    }
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
  });
});
