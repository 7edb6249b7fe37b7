import { Closable } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { CloudEvent, HOOKRAIL_HEADERS, toKafkaRecord } from '@app/contracts';
import { committedOffsets, deleteTopics, freePort, orderEvent, TopicReader, waitFor } from '@app/testing';
import { Producer } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { DevEmailProvider } from './dev-provider/email-provider.server';

/**
 * The email provider goes down under a steady stream of orders. The outage lasts 15 s rather than a minute: with
 * the breaker opening after 3 failures and probing every 1–3 s, 15 s holds the whole story (open, failed probes,
 * paused partitions, a poison event, recovery) and keeps the file at about half a minute.
 */
describe('notifier while the email provider is down (real Kafka, Postgres and HTTP provider)', () => {
  const OUTAGE_MS = 15_000;
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let provider: DevEmailProvider;
  let consumers: Closable;
  let producer: Producer;
  let deadLetters: TopicReader;
  let metricsPort: number;
  const dltTopic = () => `${bed.namespace}notifier.dlt`;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('notifier-outage', 'notifier');
    provider = await DevEmailProvider.start({ apiKey });
    metricsPort = await freePort();
    consumers = await bed.startConsumers({
      CONSUMER_GROUPS: 'notifier,ledger,agent',
      TOPIC_PARTITIONS: '3',
      METRICS_PORT: String(metricsPort),
      EMAIL_PROVIDER_URL: provider.url,
      EMAIL_PROVIDER_API_KEY: apiKey,
      CONSUMER_BREAKER_FAILURES: '3',
      CONSUMER_BREAKER_PROBE_MS: '1000',
      CONSUMER_BREAKER_PROBE_MAX_MS: '3000',
    });
    producer = bed.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    deadLetters = await TopicReader.start(dltTopic());
  });

  afterAll(async () => {
    await deadLetters?.stop();
    await producer?.disconnect();
    await consumers?.close();
    await provider?.close();
    await bed?.stop();
    const others = ['ledger', 'agent'].flatMap((group) => [`${group}.dlt`, `${group}.replay`]);
    await deleteTopics(others.map((topic) => `${bed.namespace}${topic}`));
  });

  /** To one partition on purpose: 0 and 1 carry the stream, 2 stays free for the poison and the 429. */
  const send = (event: CloudEvent, partition: number) =>
    producer.send({ topic: bed.topic, acks: -1, messages: [{ ...toKafkaRecord(event), partition }] });

  const metric = async (line: RegExp): Promise<number | undefined> => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const match = text.split('\n').find((row) => line.test(row));
    return match === undefined ? undefined : Number(match.split(' ').pop());
  };
  const breakerOpen = () => metric(/^hookrail_consumer_breaker_open\{group="notifier",dependency="email-provider"\}/);
  const breakerRow = async () =>
    (
      await bed.dataSource.query(
        `SELECT state, since, last_error FROM dependency_breakers WHERE "group" = 'notifier' AND dependency = 'email-provider'`,
      )
    )[0];
  const sentCount = async (ids: string[]) =>
    Number(
      (
        await bed.dataSource.query(
          `SELECT count(*) AS n FROM notifications WHERE status = 'sent' AND event_id = ANY($1::varchar[])`,
          [ids],
        )
      )[0].n,
    );
  const appliedBy = async (group: string, ids: string[]) =>
    Number(
      (
        await bed.dataSource.query(
          `SELECT count(*) AS n FROM processed_events WHERE "group" = $1 AND event_id = ANY($2::varchar[])`,
          [group, ids],
        )
      )[0].n,
    );
  const notifierCommitted = async () => committedOffsets(bed.kafka, `${bed.namespace}notifier`, bed.topic);

  it('waits the outage out with partitions paused: no dead letter, every email sent once after, ledger and agent unaffected', async () => {
    const warmUp = [orderEvent('ord-warm-0'), orderEvent('ord-warm-1')];
    await send(warmUp[0], 0);
    await send(warmUp[1], 1);
    await waitFor(async () => (await sentCount(warmUp.map((event) => event.id))) === 2, {
      what: 'the warm-up emails',
      timeoutMs: 30_000,
    });
    // Offsets go out up to CONSUMER_COMMIT_INTERVAL_MS after the work they cover: the outage starts once the warm-up's
    // have, so that any move of the notifier's offsets during it is the outage's.
    await waitFor(async () => (await notifierCommitted()).slice(0, 2).join() === '1,1', {
      what: 'the warm-up offsets committed',
    });

    provider.configure({ failureRate: 1, failStatus: 503 });
    const outageStart = Date.now();
    const callsBefore = provider.calls.length;
    const stream: CloudEvent[] = [];
    // A steady stream: one order every 200 ms, alternating between partitions 0 and 1, for the whole outage.
    const producing = (async () => {
      while (Date.now() - outageStart < OUTAGE_MS) {
        const event = orderEvent(`ord-out-${stream.length % 7}`);
        stream.push(event);
        await send(event, stream.length % 2);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();

    await waitFor(async () => (await breakerRow())?.state === 'open', { what: 'the breaker open', timeoutMs: 10_000 });
    expect(await breakerOpen()).toBe(1);
    expect((await breakerRow()).last_error).toMatch(/EmailProviderUnavailableError: email-provider answered 503/);
    // What GET /events/:id shows for an event that waits: the notifier retrying, with its last error.
    const [firstWaiting] = stream;
    const notifierStatus = async () =>
      (await findGroupStatuses(bed.dataSource, firstWaiting.id)).find((row) => row.group === 'notifier');
    await waitFor(async () => (await notifierStatus())?.status === 'retrying', {
      what: 'the first waiting event shown as retrying',
    });
    expect((await notifierStatus())?.lastError).toMatch(/^EmailProviderUnavailableError: email-provider answered 503/);
    const pausedAt = (await notifierCommitted()).slice(0, 2);

    // Poison during the outage, on a partition that waits on nothing: dead-lettered at once.
    const poison = orderEvent('ord-poison', { data: { amount: -5 } });
    await send(poison, 2);
    await waitFor(() => deadLetters.messages.length >= 1, { what: 'the poison dead-lettered', timeoutMs: 10_000 });
    expect(Date.now() - outageStart).toBeLessThan(OUTAGE_MS);
    expect(deadLetters.messages[0].headers).toMatchObject({
      [HOOKRAIL_HEADERS.dltEventId]: poison.id,
      [HOOKRAIL_HEADERS.dltErrorClass]: 'EventValidationError',
      [HOOKRAIL_HEADERS.dltAttempts]: '1',
    });

    await producing;
    const ids = stream.map((event) => event.id);
    // The other groups keep up while the notifier waits.
    await waitFor(async () => (await appliedBy('ledger', ids)) === ids.length, { what: 'the ledger caught up' });
    await waitFor(async () => (await appliedBy('agent', ids)) === ids.length, { what: 'the agent caught up' });
    expect((await breakerRow()).state).toBe('open');
    // Paused: the notifier's offsets did not move, and the provider saw a probe now and then, not a call per order.
    expect((await notifierCommitted()).slice(0, 2)).toEqual(pausedAt);
    const outageCalls = provider.calls.length - callsBefore;
    expect(outageCalls).toBeLessThan(ids.length / 2);

    provider.configure({ failureRate: 0 });
    await waitFor(async () => (await sentCount(ids)) === ids.length, {
      what: 'every email of the outage sent',
      timeoutMs: 30_000,
    });
    await waitFor(async () => (await breakerRow()).state === 'closed', { what: 'the breaker closed' });
    expect(await breakerOpen()).toBe(0);
    expect(await metric(/^hookrail_consumer_breaker_transitions_total\{.*group="notifier".*state="open"\}/)).toBe(1);
    expect(await metric(/^hookrail_consumer_breaker_transitions_total\{.*group="notifier".*state="closed"\}/)).toBe(1);

    const keys = provider.emails.map((email) => email.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining(ids));
    expect(provider.stats().sent).toBe(ids.length + warmUp.length);
    expect(deadLetters.messages).toHaveLength(1);
    expect(await metric(/^hookrail_consumer_dead_letters_total\{group="notifier"/)).toBe(1);
    const statuses = await bed.dataSource.query(
      `SELECT status, count(*)::int AS n FROM consumer_event_status WHERE "group" = 'notifier' GROUP BY status ORDER BY status`,
    );
    expect(statuses).toEqual([
      { status: 'dead', n: 1 },
      { status: 'processed', n: expect.any(Number) },
    ]);
  });

  it('honours Retry-After: a 429 asking for 5 s is not retried sooner', async () => {
    provider.configure({ failNext: 1, failStatus: 429, retryAfterSeconds: 5 });
    const event = orderEvent('ord-throttled');
    await send(event, 2);
    await waitFor(async () => (await sentCount([event.id])) === 1, { what: 'the throttled email sent' });
    provider.configure({ retryAfterSeconds: undefined });

    const calls = provider.calls.filter((call) => call.idempotencyKey === event.id);
    expect(calls.map((call) => call.status)).toEqual([429, 200]);
    expect(calls[1].at.getTime() - calls[0].at.getTime()).toBeGreaterThanOrEqual(5_000);
    expect((await breakerRow()).state).toBe('closed');
  });
});
