import { Closable } from '@app/config';
import { HOOKRAIL_HEADERS, toKafkaRecord } from '@app/contracts';
import { orderEvent, produce, TopicReader, waitFor } from '@app/testing';
import { deleteWebhookEndpoint, replayDeliveries, retryDeliveryNow } from '@app/webhooks';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import { addEndpoint, adminContext, deliveryIn, webhooksEnv } from './testing/webhooks-fixtures';

describe('outbound webhooks: failed deliveries, replay since a time, dead letters', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable | undefined;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('webhooks-replay', 'webhooks');
    receiver = await WebhookReceiver.start();
    receiver.respond((request) => (request.path.startsWith('/down') ? { status: 503 } : { status: 200 }));
    consumers = await bed.startConsumers(webhooksEnv());
  });

  afterAll(async () => {
    await consumers?.close();
    await receiver?.close();
    await bed?.stop();
  });

  it('sends a delivery that waits for its next attempt at once when an operator retries it', async () => {
    // Subscribed to nothing the other tests send, so that only the delivery written below goes to it.
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/later'), { eventTypes: ['acme.unused.v1'] });
    const event = orderEvent('ord-retry-now');
    // As the workers leave a delivery after a failed attempt: pending, its next attempt an hour away.
    const [{ id }] = await bed.dataSource.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                       source_topic, source_partition, source_offset, state, attempts, next_attempt_at)
       VALUES ($1, $2, $3, '/tests', now(), 'ord-retry-now', $4, $5, 0, '0', 'pending', 1, now() + interval '1 hour')
       RETURNING id::text`,
      [endpoint.id, event.id, event.type, JSON.stringify(event.data), bed.topic],
    );
    await retryDeliveryNow(adminContext(bed.dataSource), endpoint.id, id, 'test');
    const delivered = await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered', 5_000);
    expect(delivered).toMatchObject({ attempts: 2, replay_count: 0 });
    expect(receiver.requestsFor(event.id, '/later')).toHaveLength(1);
  });

  it('replays every delivery of the window, delivered or failed, in order; a dry run sends nothing', async () => {
    const endpoint = await addEndpoint(bed.dataSource, receiver.url('/down/window'), { maxInFlight: 1 });
    const settle = async (events: ReturnType<typeof orderEvent>[], state: string) => {
      await produce(bed.kafka, bed.topic, events);
      for (const event of events) await deliveryIn(bed.dataSource, event.id, endpoint.id, state);
    };
    const lastNight = [orderEvent('ord-w-1'), orderEvent('ord-w-2'), orderEvent('ord-w-3')];
    await settle(lastNight, 'failed');
    const [{ now: since }] = await bed.dataSource.query(`SELECT now() AS now`);
    const tonight = [orderEvent('ord-w-4'), orderEvent('ord-w-5')];
    await settle(tonight, 'failed');
    receiver.respond(() => ({ status: 200 }));
    const answered = [orderEvent('ord-w-6'), orderEvent('ord-w-7')];
    await settle(answered, 'delivered');
    const window = [...tonight, ...answered];
    const requestsBefore = receiver.requests.length;
    const rowsBefore = await bed.dataSource.query(
      `SELECT id, state, attempts, replay_count, updated_at FROM webhook_deliveries ORDER BY id`,
    );

    const dryRun = await replayDeliveries(
      adminContext(bed.dataSource),
      endpoint.id,
      { since: since.toISOString(), dryRun: true },
      'test',
    );
    expect(dryRun).toMatchObject({ dryRun: true, matched: 4, replayed: [] });
    expect(dryRun.candidates!.map((delivery) => delivery.eventId)).toEqual(window.map((event) => event.id));
    const failedOnly = await replayDeliveries(
      adminContext(bed.dataSource),
      endpoint.id,
      { since: since.toISOString(), status: 'failed', dryRun: true },
      'test',
    );
    expect(failedOnly.candidates!.map((delivery) => delivery.eventId)).toEqual(tonight.map((event) => event.id));
    expect(
      await bed.dataSource.query(
        `SELECT id, state, attempts, replay_count, updated_at FROM webhook_deliveries ORDER BY id`,
      ),
    ).toEqual(rowsBefore);
    expect(await bed.dataSource.query(`SELECT count(*)::int AS n FROM operator_audit WHERE action = 'replay'`)).toEqual(
      [{ n: 0 }],
    );

    const replay = await replayDeliveries(
      adminContext(bed.dataSource),
      endpoint.id,
      { since: since.toISOString() },
      'test',
    );
    expect(replay).toMatchObject({ dryRun: false, matched: 4 });
    expect(replay.replayed).toHaveLength(4);
    for (const event of window) await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered');
    for (const event of lastNight) await deliveryIn(bed.dataSource, event.id, endpoint.id, 'failed');
    const replayed = receiver.requests.slice(requestsBefore);
    expect(replayed.map((request) => request.webhookId)).toEqual(window.map((event) => event.id));
    expect(window.map((event) => receiver.requestsFor(event.id, '/down/window').length)).toEqual([5, 5, 2, 2]);
    const [audit] = await bed.dataSource.query(
      `SELECT actor, action, subject_id, count, affected_ids FROM operator_audit WHERE action = 'replay'`,
    );
    expect(audit).toEqual({
      actor: 'test',
      action: 'replay',
      subject_id: endpoint.id,
      count: 4,
      affected_ids: replay.replayed,
    });
    receiver.respond((request) => (request.path.startsWith('/down') ? { status: 503 } : { status: 200 }));
    await deleteWebhookEndpoint(adminContext(bed.dataSource), endpoint.id, 'test');
  });

  it('puts a delivery that failed for good beside the dead letters, and a replay of that dead letter sends it again', async () => {
    const reader = await TopicReader.start(`${bed.namespace}webhooks.dlt`);
    try {
      const endpoint = await addEndpoint(bed.dataSource, receiver.url('/down/dlq'), {
        eventTypes: ['shop.order.placed.v1'],
      });
      // An event a producer posted with its own id: the dead letter keeps it as ce_id, hookrail's as ce_hookrailid.
      const event = orderEvent('ord-dlq', { producerId: 'evt-dlq-1' });
      await produce(bed.kafka, bed.topic, [event]);
      await deliveryIn(bed.dataSource, event.id, endpoint.id, 'failed');
      const deadLetter = await waitFor(
        () => reader.messages.find((message) => message.headers[HOOKRAIL_HEADERS.dltEventId] === event.id),
        { what: 'the dead letter on webhooks.dlt' },
      );
      expect(deadLetter.headers).toMatchObject({
        [HOOKRAIL_HEADERS.dltGroup]: 'webhooks',
        [HOOKRAIL_HEADERS.dltErrorClass]: 'WebhookDeliveryFailedError',
        [HOOKRAIL_HEADERS.dltTopic]: bed.topic,
        [HOOKRAIL_HEADERS.dltAttempts]: '4',
        ce_id: 'evt-dlq-1',
        ce_hookrailid: event.id,
      });
      expect(deadLetter.headers[HOOKRAIL_HEADERS.dltErrorMessage]).toContain(
        `webhook delivery failed to ${receiver.url('/down/dlq')} after 4 attempts: HTTP 503`,
      );
      expect(JSON.parse(deadLetter.value!)).toEqual(event.data);
      const status = await bed.dataSource.query(
        `SELECT status FROM consumer_event_status WHERE "group" = 'webhooks' AND event_id = $1`,
        [event.id],
      );
      expect(status).toEqual([{ status: 'dead' }]);
      expect(
        await bed.dataSource.query(`SELECT 1 FROM processed_events WHERE "group" = 'webhooks' AND event_id = $1`, [
          event.id,
        ]),
      ).toEqual([]);

      receiver.respond(() => ({ status: 200 }));
      // What `hookrail dlq replay` sends: the original record, to the group's own replay topic, with its replay count.
      const record = toKafkaRecord(event);
      await produce(bed.kafka, `${bed.namespace}webhooks.replay`, [
        { ...record, headers: { ...record.headers, [HOOKRAIL_HEADERS.replayCount]: '1' } },
      ]);
      expect(await deliveryIn(bed.dataSource, event.id, endpoint.id, 'delivered')).toMatchObject({ replay_count: 1 });
      const requests = receiver.requestsFor(event.id, '/down/dlq');
      expect(requests).toHaveLength(5);
      expect(requests.map((request) => request.headers['ce-id'])).toEqual(Array(5).fill('evt-dlq-1'));
      await waitFor(
        async () =>
          (
            await bed.dataSource.query(`SELECT 1 FROM processed_events WHERE "group" = 'webhooks' AND event_id = $1`, [
              event.id,
            ])
          ).length === 1,
        { what: 'the replay applied by the group' },
      );
      expect(
        await bed.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1`, [event.id]),
      ).toEqual([{ n: 1 }]);
    } finally {
      await reader.stop();
    }
  });
});
