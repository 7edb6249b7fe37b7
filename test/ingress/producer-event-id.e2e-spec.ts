import { Closable } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { AppProcess, decodeWithCloudEventsSdk, TopicReader, waitFor } from '@app/testing';
import { findDailyTotals } from '../../apps/consumers/src/analytics/daily-totals.repository';
import { ConsumersTestBed } from '../../apps/consumers/src/testing/consumers-fixtures';
import { startRelay } from '../../apps/relay/src/testing/relay-fixtures';
import { Ingress, orderData, post, secrets, startIngress } from './ingress-harness';

/**
 * The producer's CloudEvents identity (source + id) passed on unchanged: POST /events → outbox → a real relay →
 * Kafka, read back with the official CloudEvents SDK and applied by a consumer group (analytics), which keys on
 * hookrail's own id (hookrailid).
 */
describe("POST /events keeps the producer's id; hookrail's travels in hookrailid", () => {
  let bed: ConsumersTestBed;
  let consumers: Closable;
  let ingress: Ingress;
  let relay: AppProcess;
  let reader: TopicReader;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('producer-id', 'analytics');
    consumers = await bed.startConsumers();
    ingress = await startIngress({ KAFKA_NAMESPACE: bed.namespace });
    relay = startRelay(ingress.database.url);
    reader = await TopicReader.start(bed.topic);
  });

  afterAll(async () => {
    relay?.signal('SIGKILL');
    await relay?.exited;
    await reader?.stop();
    await consumers?.close();
    await ingress?.close();
    await bed?.stop();
  });

  const send = (source: string, orderId: string) =>
    post(
      `${ingress.url}/events`,
      JSON.stringify({
        specversion: '1.0',
        id: 'evt-123',
        source,
        type: 'shop.order.placed.v1',
        subject: orderId,
        time: '2026-11-20T09:00:00.000Z',
        data: orderData(orderId),
      }),
      { authorization: `Bearer ${secrets.producerToken}`, 'content-type': 'application/cloudevents+json' },
    );

  it('two producers with the same id are two events, both applied; a redelivery is deduplicated at the ingress', async () => {
    const billing = await send('/billing', 'ord_ce1');
    const crm = await send('/crm', 'ord_ce2');
    const again = await send('/billing', 'ord_ce1');
    expect(billing).toMatchObject({ status: 202, body: { duplicate: false } });
    expect(crm).toMatchObject({ status: 202, body: { duplicate: false } });
    expect(crm.body.id).not.toBe(billing.body.id);
    expect(again).toMatchObject({ status: 200, body: { id: billing.body.id, duplicate: true } });

    await waitFor(() => reader.messages.length >= 2, { what: `two messages on ${bed.topic}` });
    // The official SDK reads the producer's id as the event's id, hookrail's (the one the 202 answered) beside it.
    const events = reader.messages.map(decodeWithCloudEventsSdk);
    // Two keys, two outbox lanes: either may be published first.
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'evt-123', source: '/billing', subject: 'ord_ce1', hookrailid: billing.body.id }),
        expect.objectContaining({ id: 'evt-123', source: '/crm', subject: 'ord_ce2', hookrailid: crm.body.id }),
      ]),
    );
    expect(reader.messages.map((message) => message.headers.ce_id)).toEqual(['evt-123', 'evt-123']);

    // The group keys on hookrail's id: the same producer id from two sources does not collapse into one.
    for (const id of [billing.body.id as string, crm.body.id as string])
      await waitFor(async () => (await findGroupStatuses(bed.dataSource, id))[0]?.status === 'processed', {
        what: `event ${id} processed by analytics`,
      });
    expect(await findDailyTotals(bed.dataSource)).toEqual([
      { day: '2026-11-20', eventType: 'shop.order.placed.v1', events: 2 },
    ]);
    // The redelivery wrote nothing: two outbox rows, two events.
    expect(await ingress.count('outbox')).toBe(2);
    expect(await ingress.count('inbound_events')).toBe(2);
  });
});
