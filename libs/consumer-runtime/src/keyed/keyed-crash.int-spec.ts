import {
  AppProcess,
  cleanEnv,
  committedOffsets,
  createTestDatabase,
  createTestTopic,
  deleteTopics,
  orderEvent,
  produce,
  TestDatabase,
  testKafka,
  TopicReader,
  TEST_BROKERS,
  uniqueName,
  waitFor,
} from '@app/testing';
import { connect } from '@app/db';
import { DataSource } from 'typeorm';
import { createKeyedEffectsTable, keyedEffects, summarize } from './testing/keyed-effects';

const WORKER = 'libs/consumer-runtime/src/keyed/testing/keyed-worker.ts';

describe('a group applying records by key, killed (kill -9) with its in-flight window full', () => {
  const kafka = testKafka('keyed-crash-test');
  const topics: string[] = [];
  const workers: AppProcess[] = [];
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'keyed-crash-test', poolSize: 4 });
    await createKeyedEffectsTable(dataSource);
  });

  afterAll(async () => {
    workers.forEach((worker) => worker.signal('SIGKILL'));
    await Promise.all(workers.map((worker) => worker.exited));
    await dataSource.destroy();
    await database.drop();
    await deleteTopics(topics);
  });

  it('never commits past an unfinished record, and after a restart every event is applied once, each key in order', async () => {
    const names = {
      TOPIC: await createTestTopic('keyed-crash-in', 3),
      DLT_TOPIC: await createTestTopic('keyed-crash-dlt'),
      REPLAY_TOPIC: await createTestTopic('keyed-crash-replay'),
      GROUP: uniqueName('keyed-crash'),
    };
    topics.push(names.TOPIC, names.DLT_TOPIC, names.REPLAY_TOPIC);
    const env = { ...names, DATABASE_URL: database.url, KAFKA_BROKERS: TEST_BROKERS.join(',') };
    const events = Array.from({ length: 30 }, (_, seq) =>
      Array.from({ length: 60 }, (_, key) => orderEvent(`order-${key}`, { data: { note: String(seq + 1) } })),
    ).flat();
    await produce(kafka, names.TOPIC, events);

    const doomed = new AppProcess(WORKER, cleanEnv({ ...env, HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS: '25' }));
    workers.push(doomed);
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Which event sits at which offset, and what was applied when the process died.
    const reader = await TopicReader.start(names.TOPIC);
    await waitFor(() => reader.messages.length === events.length, { what: 'the topic read back' });
    await reader.stop();
    const committed = await committedOffsets(kafka, names.GROUP, names.TOPIC);
    const applied = new Set((await keyedEffects(dataSource, names.GROUP)).map((row) => row.event_id));
    const below = reader.messages.filter((message) => BigInt(message.offset) < BigInt(committed[message.partition]));
    const above = reader.messages.filter((message) => BigInt(message.offset) >= BigInt(committed[message.partition]));
    expect(below.filter((message) => !applied.has(message.headers.ce_id))).toEqual([]);
    expect(below.length).toBeGreaterThan(0);
    // Records finished out of order above the committed offset: the window was in full flight when it died.
    expect(above.filter((message) => applied.has(message.headers.ce_id)).length).toBeGreaterThan(0);

    const survivor = new AppProcess(WORKER, cleanEnv(env));
    workers.push(survivor);
    await waitFor(
      async () =>
        (await committedOffsets(kafka, names.GROUP, names.TOPIC)).reduce((sum, offset) => sum + offset, 0) ===
        events.length,
      { what: 'every offset committed after the restart', timeoutMs: 60_000 },
    );
    const effects = await keyedEffects(dataSource, names.GROUP);
    const { doubled, outOfOrder } = summarize(effects);
    expect(effects).toHaveLength(events.length);
    expect(doubled).toEqual([]);
    expect(outOfOrder).toEqual([]);
    survivor.signal('SIGTERM');
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
  });
});
