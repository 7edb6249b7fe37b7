import { CloudEvent, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import {
  committedOffsets,
  createTestDatabase,
  createTestTopic,
  deleteTopics,
  orderEvent,
  ParkingScenario,
  produce,
  TestDatabase,
  testKafka,
  uniqueName,
  waitFor,
} from '@app/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import {
  ConsumerMetrics,
  ConsumerRuntime,
  ConsumerRuntimeOptions,
  DependencyUnavailableError,
  Handler,
  RetryPolicy,
} from '..';
import { createKeyedEffectsTable, keyedEffects, summarize, writeKeyedEffect } from './testing/keyed-effects';

describe('key-level concurrency in a partition (real Kafka, real Postgres)', () => {
  const kafka = testKafka('keyed-test');
  const topics: string[] = [];
  const runtimes: ConsumerRuntime[] = [];
  /** Handlers a test holds; a failed test's are let go so that its runtime can stop. */
  const holds: (() => void)[] = [];
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'keyed-test', poolSize: 8 });
    await createKeyedEffectsTable(dataSource);
  });

  afterAll(async () => {
    holds.forEach((release) => release());
    await Promise.all(runtimes.map((runtime) => runtime.stop()));
    await dataSource.destroy();
    await database.drop();
    await deleteTopics(topics);
  });

  async function group(partitions: number) {
    const topic = await createTestTopic('keyed-in', partitions);
    const replayTopic = await createTestTopic('keyed-replay');
    const dltTopic = await createTestTopic('keyed-dlt');
    topics.push(topic, replayTopic, dltTopic);
    return { topic, replayTopic, dltTopic, group: uniqueName('keyed-group') };
  }

  async function start(
    names: { topic: string; replayTopic: string; dltTopic: string; group: string },
    handler: Handler,
    {
      retry = { baseDelayMs: 5, maxDelayMs: 20 },
      ...options
    }: Partial<ConsumerRuntimeOptions> & { retry?: Partial<RetryPolicy> } = {},
  ) {
    const metrics = new ConsumerMetrics();
    const runtime = new ConsumerRuntime({
      ...names,
      topics: [names.topic],
      handlers: [{ type: SHOP_ORDER_PLACED_V1, handler, policy: { retry } }],
      kafka,
      dataSource,
      logger: createLogger('keyed-test', (process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent'),
      metrics,
      concurrency: 'key',
      keyed: { perPartition: 16, maxInFlight: 64, windowSize: 500 },
      ...options,
    });
    runtimes.push(runtime);
    await runtime.start();
    return { runtime, metrics };
  }

  const committed = async (groupId: string, topic: string) =>
    (await committedOffsets(kafka, groupId, topic)).reduce((sum, offset) => sum + Math.max(offset, 0), 0);

  /** `perKey` events for each of `keys` keys, interleaved, each with its sequence number in `data.note`. */
  function keyedEvents(keys: number, perKey: number, prefix: string): CloudEvent[] {
    const events: CloudEvent[] = [];
    for (let seq = 1; seq <= perKey; seq++) {
      for (let key = 0; key < keys; key++) events.push(orderEvent(`${prefix}-${key}`, { data: { note: String(seq) } }));
    }
    return events;
  }

  it('applies thousands of events over a hundred keys once each, every key in offset order, many keys at once', async () => {
    const names = await group(3);
    let running = 0;
    let most = 0;
    const started = new Map<string, number[]>();
    const seen = new Set<string>();
    const { metrics } = await start(names, async (event, ctx) => {
      running++;
      most = Math.max(most, running);
      const seq = Number((event.data as { note: string }).note);
      // The first run of each event (a redelivered copy may run again; its commit finds it applied).
      if (!seen.has(event.id)) started.set(event.subject!, [...(started.get(event.subject!) ?? []), seq]);
      seen.add(event.id);
      await sleep(Math.floor(Math.random() * 12));
      running--;
      writeKeyedEffect(event, ctx);
    });
    const events = keyedEvents(100, 30, 'order');
    const again = events.filter((_, index) => index % 97 === 0);
    await produce(kafka, names.topic, [...events, ...again]);

    await waitFor(async () => (await committed(names.group, names.topic)) === events.length + again.length, {
      what: 'every offset committed',
      timeoutMs: 90_000,
    });
    const effects = await keyedEffects(dataSource, names.group);
    const { perKey, doubled, outOfOrder } = summarize(effects);
    expect(effects).toHaveLength(events.length);
    expect(doubled).toEqual([]);
    expect(outOfOrder).toEqual([]);
    expect(perKey.size).toBe(100);
    for (const seqs of started.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(most).toBeGreaterThan(8);
    expect((await metrics.processed.get()).values[0].value).toBe(events.length);
  });

  it('lets a key that waits for its retry hold only itself: the partition goes on, and its offset stays at it', async () => {
    const names = await group(1);
    const slow = orderEvent('order-slow', { data: { note: '1' } });
    let slowCalls = 0;
    // The retry of the slow key waits for the test: the key stays unapplied however long the others take.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    holds.push(release);
    await start(
      names,
      async (event, ctx) => {
        if (event.id === slow.id && ++slowCalls === 1) throw new Error('provider answered 500');
        if (event.id === slow.id) await released;
        writeKeyedEffect(event, ctx);
      },
      { retry: { baseDelayMs: 1_000, maxDelayMs: 1_000 } },
    );
    const others = keyedEvents(40, 2, 'order-fast');
    const later = orderEvent('order-slow', { data: { note: '2' } });
    await produce(kafka, names.topic, [slow, ...others, later]);

    await waitFor(async () => (await keyedEffects(dataSource, names.group)).length === others.length, {
      what: 'the other keys applied while the slow key waits',
      timeoutMs: 60_000,
    });
    const meanwhile = await keyedEffects(dataSource, names.group);
    expect(meanwhile.filter((row) => row.key === 'order-slow')).toEqual([]);
    expect(await committedOffsets(kafka, names.group, names.topic)).toEqual([expect.any(Number)]);
    expect(Math.max(0, (await committedOffsets(kafka, names.group, names.topic))[0])).toBe(0);
    release();

    await waitFor(async () => (await committed(names.group, names.topic)) === others.length + 2, {
      what: 'the slow key applied after its retry, and every offset committed',
    });
    const effects = await keyedEffects(dataSource, names.group);
    expect(effects.filter((row) => row.key === 'order-slow').map((row) => row.seq)).toEqual([1, 2]);
    expect(slowCalls).toBe(2);
  });

  it('stops new calls to a dependency while its breaker is open, probes one at a time, and applies all once it answers', async () => {
    const names = await group(1);
    let down = true;
    let calls = 0;
    const { metrics } = await start(
      names,
      async (event, ctx) => {
        calls++;
        await sleep(5);
        if (down) throw new DependencyUnavailableError('card-provider', 'provider unreachable');
        writeKeyedEffect(event, ctx);
      },
      { breaker: { failureThreshold: 3, probeIntervalMs: 300, maxProbeIntervalMs: 300 } },
    );
    const events = keyedEvents(40, 1, 'order-dep');
    await produce(kafka, names.topic, events);

    await waitFor(async () => (await metrics.breakerOpen.get()).values.some((value) => value.value === 1), {
      what: 'the breaker open',
    });
    await sleep(500);
    const atOpen = calls;
    await sleep(1_500);
    // Only probes reach the dependency while it is open: about one per 300 ms, nowhere near 40 keys' retries.
    expect(calls - atOpen).toBeLessThanOrEqual(8);
    expect(calls - atOpen).toBeGreaterThanOrEqual(1);

    down = false;
    await waitFor(async () => (await keyedEffects(dataSource, names.group)).length === events.length, {
      what: 'every event applied once the dependency answers',
    });
    expect((await metrics.breakerOpen.get()).values.every((value) => value.value === 0)).toBe(true);
    await waitFor(async () => (await committed(names.group, names.topic)) === events.length, { what: 'all committed' });
  });

  it("keeps a parked key's later events waiting in order while other keys go on, and applies them in order once the head is fixed", async () => {
    const scenario = await ParkingScenario.start(dataSource, { concurrency: 'key' });
    try {
      const [first, second, third] = ['1', '2', '3'].map(() => orderEvent('order-parked'));
      const others = Array.from({ length: 20 }, (_, index) => orderEvent(`order-free-${index}`));
      scenario.rejected.add(first.id);
      await scenario.publish([first, ...others.slice(0, 10), second, ...others.slice(10), third]);

      await waitFor(async () => (await scenario.effects()).length === 20, { what: 'the other keys applied' });
      const parked = await waitFor(
        async () => {
          const rows = (await scenario.rowsOfKey('order-parked')).filter((row) => row.status === 'parked');
          return rows.length === 2 ? rows : undefined;
        },
        { what: 'two events parked behind the dead letter' },
      );
      expect(parked.map((row) => row.event_id)).toEqual([second.id, third.id]);
      expect(await scenario.effects('order-parked')).toEqual([]);

      scenario.rejected.delete(first.id);
      const head = await scenario.deadLetterOf(first.id);
      expect(await scenario.replay([head.id])).toEqual([head.id]);
      await waitFor(async () => (await scenario.effects('order-parked')).length === 3, {
        what: 'the key applied in order after the fix',
      });
      expect(await scenario.effects('order-parked')).toEqual([first.id, second.id, third.id]);
      await waitFor(async () => (await scenario.parkedKey('order-parked')) === undefined, { what: 'the key released' });
    } finally {
      await scenario.stop();
    }
  });

  it('loses and doubles nothing when a second member joins mid-window, and keeps every key in order', async () => {
    const names = await group(4);
    const handler: Handler = async (event, ctx) => {
      await sleep(2 + Math.floor(Math.random() * 6));
      writeKeyedEffect(event, ctx);
    };
    await start(names, handler);
    const events = keyedEvents(60, 25, 'order-rb');
    await produce(kafka, names.topic, events);
    await waitFor(async () => (await keyedEffects(dataSource, names.group)).length >= 200, {
      what: 'the first member well under way',
    });
    await start(names, handler);

    await waitFor(async () => (await committed(names.group, names.topic)) === events.length, {
      what: 'every offset committed by the two members',
      timeoutMs: 90_000,
    });
    const { perKey, doubled, outOfOrder } = summarize(await keyedEffects(dataSource, names.group));
    expect(doubled).toEqual([]);
    expect(outOfOrder).toEqual([]);
    expect([...perKey.values()].reduce((sum, seqs) => sum + seqs.length, 0)).toBe(events.length);
  });
});
