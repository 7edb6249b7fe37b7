import { HOOKRAIL_HEADERS, SHOP_ORDER_PLACED_V1, toKafkaRecord } from '@app/contracts';
import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import {
  createTestDatabase,
  createTestTopic,
  deleteTopics,
  orderEvent,
  TestDatabase,
  testKafka,
  TopicReader,
  uniqueName,
  waitFor,
} from '@app/testing';
import { DataSource } from 'typeorm';
import { ConsumerMetrics, ConsumerRuntime, DependencyUnavailableError, Handler, listBreakers } from '.';

/**
 * Any group whose handler throws a DependencyUnavailableError gets a breaker for the dependency it names, with no code
 * of its own: here a group that calls a payment provider for some orders and a shipping provider for others.
 */
describe('a group waiting on a down dependency (real Kafka, real Postgres)', () => {
  const kafka = testKafka('dependency-outage-test');
  const topics: string[] = [];
  const runtimes: ConsumerRuntime[] = [];
  const readers: TopicReader[] = [];
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'dependency-outage-test', poolSize: 6 });
    await dataSource.query(
      `CREATE TABLE test_calls (id serial PRIMARY KEY, "group" text, event_id text, provider text)`,
    );
  });

  afterAll(async () => {
    await Promise.all(readers.map((reader) => reader.stop()));
    await Promise.all(runtimes.map((runtime) => runtime.stop()));
    await dataSource.destroy();
    await database.drop();
    await deleteTopics(topics);
  });

  /** Orders noted `payment-provider` or `shipping-provider` call that provider; `down` says which ones fail. */
  const down = new Set<string>();
  const callProvider: Handler = async (event, ctx) => {
    const provider = String((event.data as { note: string }).note);
    if (down.has(provider)) throw new DependencyUnavailableError(provider, `${provider} answered 503`);
    await ctx.manager.query(`INSERT INTO test_calls ("group", event_id, provider) VALUES ($1, $2, $3)`, [
      ctx.group,
      event.id,
      provider,
    ]);
  };

  async function start(retryCeilingMs: number) {
    const topic = await createTestTopic('outage-in', 2);
    const dltTopic = await createTestTopic('outage-dlt');
    const replayTopic = await createTestTopic('outage-replay');
    topics.push(topic, dltTopic, replayTopic);
    const group = uniqueName('outage-group');
    const metrics = new ConsumerMetrics();
    const runtime = new ConsumerRuntime({
      group,
      topics: [topic],
      dltTopic,
      replayTopic,
      handlers: [{ type: SHOP_ORDER_PLACED_V1, handler: callProvider, policy: { retry: { baseDelayMs: 50 } } }],
      kafka,
      dataSource,
      logger: createLogger('test', 'silent'),
      metrics,
      retryCeilingMs,
      breaker: { failureThreshold: 2, probeIntervalMs: 300, maxProbeIntervalMs: 600 },
    });
    runtimes.push(runtime);
    await runtime.start();
    const deadLetters = await TopicReader.start(dltTopic);
    readers.push(deadLetters);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    /** Payment orders on partition 0, shipping orders on partition 1. */
    const send = async (provider: string, count: number) => {
      const events = Array.from({ length: count }, (_, seq) =>
        orderEvent(`ord-${provider}-${seq}`, { data: { note: provider } }),
      );
      const partition = provider === 'payment-provider' ? 0 : 1;
      await producer.send({
        topic,
        acks: -1,
        messages: events.map((event) => ({ ...toKafkaRecord(event), partition })),
      });
      return events.map((event) => event.id);
    };
    const calls = async (provider: string) =>
      Number(
        (
          await dataSource.query(`SELECT count(*) AS n FROM test_calls WHERE "group" = $1 AND provider = $2`, [
            group,
            provider,
          ])
        )[0].n,
      );
    const breaker = async (dependency: string) =>
      (await listBreakers(dataSource)).find((row) => row.group === group && row.dependency === dependency);
    return { group, metrics, deadLetters, send, calls, breaker, stopProducer: () => producer.disconnect() };
  }

  it('pauses only what waits on the down dependency, and goes on when it answers', async () => {
    const { send, calls, breaker, deadLetters, metrics, group, stopProducer } = await start(3_600_000);
    down.add('payment-provider');
    await send('payment-provider', 5);
    await waitFor(async () => (await breaker('payment-provider'))?.state === 'open', { what: 'the payments breaker' });

    // The shipping provider answers: its orders go through while payments wait.
    await send('shipping-provider', 5);
    await waitFor(async () => (await calls('shipping-provider')) === 5, { what: 'shipping orders applied' });
    expect(await calls('payment-provider')).toBe(0);
    expect(await breaker('shipping-provider')).toBeUndefined();
    expect((await metrics.breakerOpen.get()).values).toEqual([
      { labels: { group, dependency: 'payment-provider' }, value: 1 },
    ]);

    down.delete('payment-provider');
    await waitFor(async () => (await calls('payment-provider')) === 5, { what: 'payment orders applied' });
    await waitFor(async () => (await breaker('payment-provider'))?.state === 'closed', { what: 'the breaker closed' });
    expect(deadLetters.messages).toEqual([]);
    await stopProducer();
  });

  it('dead-letters a message after the retry ceiling, with its error class, dependency and how long it was tried', async () => {
    const { send, deadLetters, group, stopProducer } = await start(1_500);
    down.add('payment-provider');
    const [id] = await send('payment-provider', 1);
    await waitFor(() => deadLetters.messages.length === 1, { what: 'the dead letter after the ceiling' });
    down.delete('payment-provider');
    const headers = deadLetters.messages[0].headers;
    expect(headers).toMatchObject({
      [HOOKRAIL_HEADERS.dltEventId]: id,
      [HOOKRAIL_HEADERS.dltGroup]: group,
      [HOOKRAIL_HEADERS.dltErrorClass]: 'DependencyUnavailableError',
      [HOOKRAIL_HEADERS.dltDependency]: 'payment-provider',
    });
    expect(Number(headers[HOOKRAIL_HEADERS.dltRetriedForMs])).toBeGreaterThanOrEqual(1_500);
    expect(Number(headers[HOOKRAIL_HEADERS.dltAttempts])).toBeGreaterThan(1);
    await stopProducer();
  });
});
