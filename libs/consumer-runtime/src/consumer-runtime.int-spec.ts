import { CloudEvent, HOOKRAIL_HEADERS, SHOP_ORDER_PLACED_V1, toKafkaRecord } from '@app/contracts';
import { connect } from '@app/db';
import { ensureTopics } from '@app/kafka';
import { createLogger } from '@app/logger';
import {
  committedOffsets,
  createTestDatabase,
  createTestTopic,
  deleteTopics,
  orderEvent,
  produce,
  TestDatabase,
  testKafka,
  uniqueName,
  waitFor,
} from '@app/testing';
import { KafkaMessage } from 'kafkajs';
import { Writable } from 'node:stream';
import pino from 'pino';
import { DataSource } from 'typeorm';
import {
  ConsumerContext,
  ConsumerMetrics,
  ConsumerRuntime,
  findGroupStatuses,
  Handler,
  PermanentError,
  RetryPolicy,
} from '.';

const FAST_RETRY: Partial<RetryPolicy> = { baseDelayMs: 5, maxDelayMs: 20 };

describe('consumer runtime (real Kafka, real Postgres)', () => {
  const kafka = testKafka('consumer-runtime-test');
  const topics: string[] = [];
  const runtimes: ConsumerRuntime[] = [];
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'consumer-runtime-test', poolSize: 8 });
    await dataSource.query(
      `CREATE TABLE test_effects (id serial PRIMARY KEY, "group" text, event_id text, key text, seq int)`,
    );
  });

  afterAll(async () => {
    await Promise.all(runtimes.map((runtime) => runtime.stop()));
    await dataSource.destroy();
    await database.drop();
    await deleteTopics(topics.filter(Boolean));
  });

  /** The effect every test handler writes through the runtime's transaction. */
  const recordEffect: Handler = async (event, ctx) => {
    await ctx.manager.query(`INSERT INTO test_effects ("group", event_id, key, seq) VALUES ($1, $2, $3, $4)`, [
      ctx.group,
      event.id,
      event.subject,
      Number((event.data as { note?: string }).note ?? 0),
    ]);
  };

  async function start(
    handler: Handler,
    {
      partitions = 1,
      retry = FAST_RETRY,
      dlt = true,
      logger = createLogger('test', 'silent'),
      sessionTimeoutMs = 30_000,
    } = {},
  ) {
    const topic = await createTestTopic('runtime-in', partitions);
    const replayTopic = await createTestTopic('runtime-replay');
    const dltTopic = dlt ? await createTestTopic('runtime-dlt') : uniqueName('runtime-dlt-missing');
    topics.push(topic, replayTopic, ...(dlt ? [dltTopic] : []));
    const group = uniqueName('runtime-group');
    const metrics = new ConsumerMetrics();
    const runtime = new ConsumerRuntime({
      group,
      topics: [topic],
      dltTopic,
      replayTopic,
      handlers: [{ type: SHOP_ORDER_PLACED_V1, handler, policy: { retry } }],
      kafka,
      dataSource,
      logger,
      metrics,
      sessionTimeoutMs,
    });
    runtimes.push(runtime);
    await runtime.start();
    const committed = async () =>
      (await committedOffsets(kafka, group, topic)).reduce((sum, offset) => sum + Math.max(offset, 0), 0);
    return { topic, replayTopic, dltTopic, group, metrics, runtime, committed };
  }

  async function effects(group: string): Promise<Array<{ event_id: string; key: string; seq: number }>> {
    return dataSource.query(`SELECT event_id, key, seq FROM test_effects WHERE "group" = $1 ORDER BY id`, [group]);
  }

  async function counter(metric: { get(): Promise<{ values: Array<{ value: number }> }> }): Promise<number> {
    return (await metric.get()).values.reduce((sum, value) => sum + value.value, 0);
  }

  async function readTopic(topic: string, count: number): Promise<KafkaMessage[]> {
    const consumer = kafka.consumer({ groupId: uniqueName('runtime-reader') });
    const messages: KafkaMessage[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void messages.push(message) });
      await waitFor(() => messages.length >= count, { what: `${count} messages on ${topic}` });
      return messages;
    } finally {
      await consumer.disconnect();
    }
  }

  it('applies an event delivered three times once', async () => {
    const { topic, group, metrics, committed } = await start(recordEffect);
    const event = orderEvent('order-dup');
    await produce(kafka, topic, [event, event, event]);

    await waitFor(async () => (await committed()) === 3, { what: 'three offsets committed' });
    expect(await effects(group)).toEqual([expect.objectContaining({ event_id: event.id })]);
    expect(await counter(metrics.processed)).toBe(1);
    expect(await counter(metrics.duplicates)).toBe(2);
    expect(await findGroupStatuses(dataSource, event.id)).toEqual([
      expect.objectContaining({ group, status: 'processed', attempts: 1 }),
    ]);
  });

  it('retries a handler that fails twice, then applies it once and counts two retries', async () => {
    let calls = 0;
    const { topic, group, metrics, committed } = await start(async (event, ctx) => {
      if (++calls <= 2) throw new Error(`flaky dependency (call ${calls})`);
      await recordEffect(event, ctx);
    });
    const event = orderEvent('order-flaky');
    await produce(kafka, topic, [event]);

    await waitFor(async () => (await committed()) === 1, { what: 'the offset committed' });
    expect(await effects(group)).toHaveLength(1);
    expect(calls).toBe(3);
    expect(await counter(metrics.retries)).toBe(2);
    expect(await counter(metrics.processed)).toBe(1);
    expect(await findGroupStatuses(dataSource, event.id)).toEqual([
      expect.objectContaining({
        group,
        status: 'processed',
        attempts: 3,
        lastError: 'Error: flaky dependency (call 2)',
      }),
    ]);
  });

  it('dead-letters poison at once and exhausted retries after the last attempt, with every header, and keeps the partition flowing', async () => {
    const { topic, dltTopic, group, metrics, committed } = await start(
      async (event, ctx) => {
        if (event.subject === 'order-broken') throw new TypeError('downstream keeps failing');
        await recordEffect(event, ctx);
      },
      { retry: { ...FAST_RETRY, maxAttempts: 3 } },
    );
    const invalid = orderEvent('order-1', { data: { amount: -5 } });
    const broken = orderEvent('order-broken');
    const followers = ['order-1', 'order-2', 'order-3', 'order-4'].map((key, seq) =>
      orderEvent(key, { data: { note: String(seq) } }),
    );
    await produce(kafka, topic, [invalid, broken, ...followers]);

    await waitFor(async () => (await committed()) === 6, { what: 'all six offsets committed' });
    expect((await effects(group)).map((row) => row.event_id)).toEqual(followers.map((event) => event.id));
    expect(await counter(metrics.deadLetters)).toBe(2);

    const deadLetters = await readTopic(dltTopic, 2);
    const byEvent = new Map(
      deadLetters.map((message) => [message.headers?.[HOOKRAIL_HEADERS.dltEventId]?.toString(), message]),
    );
    const poison = byEvent.get(invalid.id)!;
    const original = toKafkaRecord(invalid);
    expect(poison.key?.toString()).toBe(original.key);
    expect(poison.value?.toString()).toBe(original.value);
    const headers = Object.fromEntries(
      Object.entries(poison.headers ?? {}).map(([name, value]) => [name, value?.toString()]),
    );
    expect(headers).toMatchObject(original.headers);
    expect(headers).toMatchObject({
      [HOOKRAIL_HEADERS.dltTopic]: topic,
      [HOOKRAIL_HEADERS.dltPartition]: '0',
      [HOOKRAIL_HEADERS.dltOffset]: '0',
      [HOOKRAIL_HEADERS.dltGroup]: group,
      [HOOKRAIL_HEADERS.dltEventId]: invalid.id,
      [HOOKRAIL_HEADERS.dltErrorClass]: 'EventValidationError',
      [HOOKRAIL_HEADERS.dltAttempts]: '1',
    });
    expect(headers[HOOKRAIL_HEADERS.dltErrorMessage]).toMatch(/amount/);
    expect(headers[HOOKRAIL_HEADERS.dltErrorStack]).toMatch(/EventValidationError/);
    expect(Date.parse(headers[HOOKRAIL_HEADERS.dltFirstFailureAt]!)).not.toBeNaN();
    expect(Date.parse(headers[HOOKRAIL_HEADERS.dltLastFailureAt]!)).not.toBeNaN();

    const exhausted = Object.fromEntries(
      Object.entries(byEvent.get(broken.id)!.headers ?? {}).map(([name, value]) => [name, value?.toString()]),
    );
    expect(exhausted).toMatchObject({
      [HOOKRAIL_HEADERS.dltErrorClass]: 'TypeError',
      [HOOKRAIL_HEADERS.dltAttempts]: '3',
      [HOOKRAIL_HEADERS.dltOffset]: '1',
    });
    expect(Date.parse(exhausted[HOOKRAIL_HEADERS.dltLastFailureAt]!)).toBeGreaterThan(
      Date.parse(exhausted[HOOKRAIL_HEADERS.dltFirstFailureAt]!),
    );
    expect(await findGroupStatuses(dataSource, broken.id)).toEqual([
      expect.objectContaining({ group, status: 'dead', attempts: 3, lastError: 'TypeError: downstream keeps failing' }),
    ]);
    expect(await findGroupStatuses(dataSource, invalid.id)).toEqual([
      expect.objectContaining({ group, status: 'dead', attempts: 1 }),
    ]);
  });

  it('dead-letters an event once however many copies of it arrive (the relay publishes at least once)', async () => {
    const { topic, dltTopic, group, metrics, committed } = await start(recordEffect);
    const invalid = orderEvent('order-copied', { data: { amount: -5 } });
    const follower = orderEvent('order-copied', { data: { note: '1' } });
    await produce(kafka, topic, [invalid, follower, invalid, invalid]);

    // An offset is committed only after its dead letter was acknowledged: once all four are, the topic is complete.
    await waitFor(async () => (await committed()) === 4, { what: 'all four offsets committed' });
    const admin = kafka.admin();
    await admin.connect();
    const [{ high }] = await admin.fetchTopicOffsets(dltTopic).finally(() => admin.disconnect());
    expect(high).toBe('1');
    expect(await counter(metrics.deadLetters)).toBe(1);
    expect((await effects(group)).map((row) => row.event_id)).toEqual([follower.id]);
    expect(await findGroupStatuses(dataSource, invalid.id)).toEqual([
      expect.objectContaining({ group, status: 'dead', attempts: 1 }),
    ]);
  });

  it('does not commit past a dead letter it could not produce, and processes the message again later', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const { topic, dltTopic, group, committed } = await start(recordEffect, { dlt: false, logger });
    const poison = orderEvent('order-p', { data: { currency: 'euro' } });
    const next = orderEvent('order-q');
    await produce(kafka, topic, [poison, next]);

    const failures = () => lines.filter((line) => line.includes('could not produce the dead letter')).length;
    await waitFor(() => failures() >= 2, { what: 'the dead letter to fail twice', timeoutMs: 30_000 });
    expect(await committedOffsets(kafka, group, topic)).toEqual([-1]);
    expect(await effects(group)).toEqual([]);

    await createTopicNamed(dltTopic);
    await waitFor(async () => (await committed()) === 2, {
      what: 'both offsets committed once the dead-letter topic exists',
      timeoutMs: 40_000,
    });
    expect((await effects(group)).map((row) => row.event_id)).toEqual([next.id]);
    expect(
      (await readTopic(dltTopic, 1)).map((message) => message.headers?.[HOOKRAIL_HEADERS.dltEventId]?.toString()),
    ).toContain(poison.id);
  });

  async function createTopicNamed(topic: string): Promise<void> {
    await ensureTopics(kafka, [{ topic, numPartitions: 1 }]);
    topics.push(topic);
  }

  it('delivers 1,000 events over 20 keys in per-key order, also with retries in between', async () => {
    const failedOnce = new Set<string>();
    const { topic, group, metrics, committed } = await start(
      async (event, ctx) => {
        const seq = Number((event.data as { note: string }).note);
        if ((seq % 7 === 3 || seq % 11 === 5) && !failedOnce.has(event.id)) {
          failedOnce.add(event.id);
          throw new Error('transient');
        }
        await recordEffect(event, ctx);
      },
      { partitions: 4 },
    );
    const keys = Array.from({ length: 20 }, (_, index) => `order-${index}`);
    const events = Array.from({ length: 1000 }, (_, index) =>
      orderEvent(keys[index % 20], { data: { note: String(Math.floor(index / 20)) } }),
    );
    await produce(kafka, topic, events);

    await waitFor(async () => (await committed()) === 1000, { what: '1,000 offsets committed', timeoutMs: 45_000 });
    const rows = await effects(group);
    expect(rows).toHaveLength(1000);
    expect(new Set(rows.map((row) => row.event_id)).size).toBe(1000);
    for (const key of keys) {
      expect(rows.filter((row) => row.key === key).map((row) => row.seq)).toEqual(
        Array.from({ length: 50 }, (_, seq) => seq),
      );
    }
    expect(await counter(metrics.retries)).toBe(failedOnce.size);
    expect(failedOnce.size).toBeGreaterThan(100);
  });

  it('consumes its replay topic: without a fix the replay dead-letters again with its count, after a fix it applies once', async () => {
    let fixed = false;
    const seen: number[] = [];
    const { topic, replayTopic, dltTopic, group } = await start(async (event: CloudEvent, ctx: ConsumerContext) => {
      seen.push(ctx.replayCount);
      if (!fixed) throw new PermanentError('order unknown to the ledger');
      await recordEffect(event, ctx);
    });
    const event = orderEvent('order-replayed');
    const record = toKafkaRecord(event);
    const replay = (count: number) => ({
      ...record,
      headers: { ...record.headers, [HOOKRAIL_HEADERS.replayCount]: String(count) },
    });
    await produce(kafka, topic, [event]);
    await waitFor(async () => (await findGroupStatuses(dataSource, event.id))[0]?.status === 'dead', {
      what: 'the event dead',
    });

    await produce(kafka, replayTopic, [replay(1)]);
    const deadLetters = await readTopic(dltTopic, 2);
    const again = deadLetters.find(
      (message) => message.headers?.[HOOKRAIL_HEADERS.dltTopic]?.toString() === replayTopic,
    )!;
    expect(again.headers?.[HOOKRAIL_HEADERS.replayCount]?.toString()).toBe('1');
    expect(again.headers?.[HOOKRAIL_HEADERS.dltErrorClass]?.toString()).toBe('PermanentError');

    fixed = true;
    await produce(kafka, replayTopic, [replay(2)]);
    await waitFor(async () => (await findGroupStatuses(dataSource, event.id))[0]?.status === 'processed', {
      what: 'the replay applied',
    });
    expect(await effects(group)).toHaveLength(1);
    expect(seen).toEqual([0, 1, 2]);
  });

  it('keeps its group membership through a handler that works longer than the session timeout', async () => {
    let calls = 0;
    const { topic, group, committed } = await start(
      async (event, ctx) => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 8_000)); // the slow work itself, longer than the session
        await recordEffect(event, ctx);
      },
      { sessionTimeoutMs: 6_000 },
    );
    await produce(kafka, topic, [orderEvent('order-long')]);

    await waitFor(async () => (await committed()) === 1, { what: 'the offset committed after the long handler' });
    expect(calls).toBe(1);
    expect(await effects(group)).toHaveLength(1);
  });

  it('finishes and commits the message in hand when stopped', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = false;
    const { topic, group, runtime, committed } = await start(async (event, ctx) => {
      entered = true;
      await gate;
      await recordEffect(event, ctx);
    });
    await produce(kafka, topic, [orderEvent('order-slow')]);
    await waitFor(() => entered, { what: 'the handler to start' });

    const stopped = runtime.stop();
    release();
    await stopped;
    expect(await effects(group)).toHaveLength(1);
    expect(await committed()).toBe(1);
  });
});
