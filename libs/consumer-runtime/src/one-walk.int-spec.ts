import { SHOP_ORDER_PLACED_V1, toKafkaRecord } from '@app/contracts';
import { createLogger } from '@app/logger';
import {
  committedOffsets,
  createTestTopic,
  deleteTopics,
  orderEvent,
  testKafka,
  uniqueName,
  useInMemoryTracing,
  useTestDataSource,
  waitFor,
} from '@app/testing';
import { Message } from 'kafkajs';
import { ConsumerMetrics, ConsumerRuntime, Handler } from '.';

type Mode = 'batch' | 'key';

/** What one group's walk showed from outside: its metrics, its spans and the dead letters it produced. */
interface Seen {
  processed: number;
  duplicates: number;
  retries: number;
  deadLetters: number;
  /** Runs of the handler that were timed, and runs the handler itself counted. */
  handlerTimings: number;
  handlerRuns: number;
  processSpans: number;
}

/**
 * Both modes run one message walk composed from the same step files (parse, retry, dead letter, count; trace, time,
 * dedupe, park), so the same input seen by a batch group and by a keyed group shows the same metrics and spans.
 */
describe('one message walk for both modes (real Kafka, real Postgres)', () => {
  const exporter = useInMemoryTracing();
  const kafka = testKafka('one-walk-test');
  const db = useTestDataSource('one-walk-test', 6);
  const topics: string[] = [];

  beforeAll(() =>
    db.dataSource.query(`CREATE TABLE walk_effects ("group" text, event_id text, PRIMARY KEY ("group", event_id))`),
  );
  afterAll(() => deleteTopics(topics));

  async function counter(metric: { get(): Promise<{ values: Array<{ value: number; metricName?: string }> }> }) {
    return (await metric.get()).values.reduce((sum, value) => sum + value.value, 0);
  }

  /** The same events, one at a time, through a group of `mode`: applied, flaky once, poison, and a redelivery. */
  async function walkThrough(mode: Mode): Promise<Seen> {
    const topic = await createTestTopic(`walk-${mode}`);
    const dltTopic = await createTestTopic(`walk-${mode}-dlt`);
    const replayTopic = await createTestTopic(`walk-${mode}-replay`);
    topics.push(topic, dltTopic, replayTopic);
    const group = uniqueName(`walk-${mode}`);
    const metrics = new ConsumerMetrics();
    const flaky = orderEvent('ord-flaky');
    let flakyCalls = 0;
    let handlerRuns = 0;
    // ctx.write works in both modes (by key the handler runs before the transaction and has no manager).
    const handler: Handler = async (event, ctx) => {
      handlerRuns++;
      if (event.id === flaky.id && ++flakyCalls === 1) throw new Error('flaky dependency');
      ctx.write(
        (manager, rows: Array<{ group: string; id: string }>) =>
          manager.query(`INSERT INTO walk_effects ("group", event_id) SELECT $1, unnest($2::text[])`, [
            rows[0].group,
            rows.map((row) => row.id),
          ]),
        { group: ctx.group, id: event.id },
      );
    };
    const runtime = new ConsumerRuntime({
      group,
      topics: [topic],
      dltTopic,
      replayTopic,
      handlers: [{ type: SHOP_ORDER_PLACED_V1, handler, policy: { retry: { baseDelayMs: 5, maxDelayMs: 20 } } }],
      kafka,
      dataSource: db.dataSource,
      logger: createLogger('test', 'silent'),
      metrics,
      concurrency: mode,
    });
    await runtime.start();
    const producer = kafka.producer();
    await producer.connect();
    const committed = async () =>
      (await committedOffsets(kafka, group, topic)).reduce((sum, offset) => sum + Math.max(offset, 0), 0);
    const send = async (record: Message, offsets: number) => {
      await producer.send({ topic, messages: [record] });
      await waitFor(async () => (await committed()) === offsets, { what: `${mode}: ${offsets} offsets committed` });
    };
    const applied = orderEvent('ord-applied');
    try {
      await send(toKafkaRecord(applied), 1);
      await send(toKafkaRecord(flaky), 2);
      await send({ key: 'ord-poison', value: '{not json' }, 3);
      await send(toKafkaRecord(applied), 4);
    } finally {
      await producer.disconnect();
      await runtime.stop();
    }
    const rows = await db.dataSource.query(`SELECT event_id FROM walk_effects WHERE "group" = $1 ORDER BY 1`, [group]);
    expect(rows.map((row: { event_id: string }) => row.event_id)).toEqual([applied.id, flaky.id].sort());
    return {
      processed: await counter(metrics.processed),
      duplicates: await counter(metrics.duplicates),
      retries: await counter(metrics.retries),
      deadLetters: await counter(metrics.deadLetters),
      handlerTimings: (await metrics.handlerSeconds.get()).values
        .filter((value) => value.metricName?.endsWith('_count'))
        .reduce((sum, value) => sum + value.value, 0),
      handlerRuns,
      processSpans: exporter.getFinishedSpans().filter((span) => span.name === `process ${topic}`).length,
    };
  }

  it('a batch group and a keyed group see the same metrics and spans for the same messages', async () => {
    const batch = await walkThrough('batch');
    const keyed = await walkThrough('key');
    // Applied twice (one after a retry), one redelivery skipped, poison dead-lettered at once without an attempt, a
    // span for each of four attempts, and every run of the handler timed. A keyed group runs the redelivery's handler
    // before its commit finds the dedupe row (it checks first only after a partition changes hands), so its runs are
    // one more.
    const expected = { processed: 2, duplicates: 1, retries: 1, deadLetters: 1, processSpans: 4 };
    expect({ batch, keyed }).toEqual({
      batch: { ...expected, handlerTimings: 3, handlerRuns: 3 },
      keyed: { ...expected, handlerTimings: 4, handlerRuns: 4 },
    });
  });
});
