import { Closable } from '@app/config';
import { orderEvent, produce, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { WebhookReceiver } from './testing/webhook-receiver';
import { addEndpoint, webhooksEnv } from './testing/webhooks-fixtures';

const AGGREGATES = 10;
const EVENTS = 200;

describe('outbound webhooks: an ordered endpoint gets each aggregate one at a time, in order, through retries', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable | undefined;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('webhooks-ordered', 'webhooks');
    receiver = await WebhookReceiver.start();
    consumers = await bed.startConsumers(webhooksEnv({ OUTBOUND_WEBHOOKS_RETRY_SCHEDULE: '0,50ms,50ms,50ms,50ms' }));
  });

  afterAll(async () => {
    await consumers?.close();
    await receiver?.close();
    await bed?.stop();
  });

  it(`keeps per-aggregate order for ${EVENTS} events over ${AGGREGATES} aggregates with failures and retries`, async () => {
    await addEndpoint(bed.dataSource, receiver.url('/ordered'), { ordered: true });
    const events = Array.from({ length: EVENTS }, (_, i) => orderEvent(`ord-agg-${i % AGGREGATES}`));
    const indexOf = new Map(events.map((event, index) => [event.id, index]));
    // Every 7th event fails twice before it is taken; nothing else of its aggregate may pass it meanwhile.
    const failing = new Set(events.filter((_, index) => index % 7 === 3).map((event) => event.id));
    receiver.respond((request, attempt) =>
      failing.has(request.webhookId) && attempt <= 2 ? { status: 500 } : { status: 200, delayMs: 5 },
    );
    await produce(bed.kafka, bed.topic, events);
    await waitFor(() => receiver.effectsAt('/ordered').length === EVENTS, {
      what: `all ${EVENTS} events delivered`,
      timeoutMs: 45_000,
    });

    for (let aggregate = 0; aggregate < AGGREGATES; aggregate++) {
      const key = `ord-agg-${aggregate}`;
      const sent = receiver.requests.filter((request) => request.headers['ce-subject'] === key);
      const expected = events.filter((event) => event.subject === key).map((event) => indexOf.get(event.id));
      const accepted = receiver.effectsAt('/ordered').filter((id) => events[indexOf.get(id)!].subject === key);
      expect(accepted.map((id) => indexOf.get(id))).toEqual(expected);
      // Every request, retries included, in order: an event is never tried before the one before it was accepted.
      const tried = sent.map((request) => indexOf.get(request.webhookId)!);
      expect(tried).toEqual([...tried].sort((a, b) => a - b));
      // One at a time: each request of the aggregate arrived after the answer to the one before was finished.
      const overlaps = sent.filter((request, i) => i > 0 && request.at < sent[i - 1].doneAt!);
      expect(overlaps).toEqual([]);
    }
    expect(receiver.requests.filter((request) => failing.has(request.webhookId))).toHaveLength(failing.size * 3);
  });
});
