import { findAgentTask } from '@app/agent-tasks';
import { Closable } from '@app/config';
import { replayDeadLetters, startDeadLetterStore } from '@app/dead-letters';
import { createLogger } from '@app/logger';
import { orderEvent, produce, TEST_KAFKA, waitFor } from '@app/testing';
import { Producer } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { FakeModelServer } from './dev-model/model.server';

describe('agent dead letters with the dead-letter store and operator replay', () => {
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let model: FakeModelServer;
  let consumers: Closable;
  let store: Closable;
  let producer: Producer;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('agent-replay', 'agent');
    model = await FakeModelServer.start({ apiKey, behaviour: { failureRate: 1, failStatus: 502 } });
    consumers = await bed.startConsumers({
      MODEL_BASE_URL: model.baseUrl,
      MODEL_API_KEY: apiKey,
      AGENT_POLL_INTERVAL_MS: '50',
      AGENT_MAX_ATTEMPTS: '2',
      AGENT_RETRY_BASE_MS: '20',
      AGENT_RETRY_MAX_MS: '50',
      // The model is down for good here: each run of the task dies this long after its first failure.
      CONSUMER_RETRY_CEILING_MS: '2000',
      CONSUMER_BREAKER_PROBE_MS: '200',
      CONSUMER_BREAKER_PROBE_MAX_MS: '500',
    });
    store = await startDeadLetterStore(
      {
        databaseUrl: bed.database.url,
        kafka: TEST_KAFKA,
        namespace: bed.namespace,
        groups: ['agent'],
        createTopics: true,
        topicPartitions: 1,
        retentionSeconds: 86_400,
        retentionEveryMs: 3_600_000,
      },
      createLogger('consumers', 'silent'),
    );
    producer = bed.kafka.producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await store?.close();
    await consumers?.close();
    await model?.close();
    await bed?.stop();
  });

  const rowsOf = (
    eventId: string,
  ): Promise<Array<{ id: string; status: string; replay_count: number; error_class: string; attempts: number }>> =>
    bed.dataSource.query(
      `SELECT id, status, replay_count, error_class, attempts FROM dead_letters WHERE event_id = $1`,
      [eventId],
    );

  it('a replay that dies again returns to its dead letter; a replay after the fix resolves it', async () => {
    const event = orderEvent('ord-replayed', { data: { note: 'swap the colour please' } });
    await produce(bed.kafka, bed.topic, [event]);
    const [first] = await waitFor(
      async () => ((await rowsOf(event.id))[0]?.status === 'dead' ? rowsOf(event.id) : undefined),
      { what: 'the dead letter indexed' },
    );
    expect(first).toMatchObject({ replay_count: 0, error_class: 'ModelUnavailableError' });
    // Past AGENT_MAX_ATTEMPTS (2): a down model does not spend them; the ceiling ended it.
    expect(first.attempts).toBeGreaterThan(2);

    const replay = () =>
      replayDeadLetters(bed.dataSource, async () => producer, {
        filter: { group: 'agent', eventId: event.id },
        actor: 'test',
      });
    expect((await replay()).replayed).toEqual([first.id]);
    await waitFor(async () => (await rowsOf(event.id)).some((row) => row.status === 'dead' && row.replay_count === 1), {
      what: 'the replay back in its row',
    });
    expect(await rowsOf(event.id)).toEqual([
      expect.objectContaining({ id: first.id, status: 'dead', replay_count: 1 }),
    ]);
    const again = await findAgentTask(bed.dataSource, event.id);
    expect(again).toMatchObject({ state: 'dead', replayCount: 1 });
    expect(again!.attempts).toBeGreaterThan(2);

    model.configure({ failureRate: 0 });
    expect((await replay()).replayed).toEqual([first.id]);
    await waitFor(async () => (await rowsOf(event.id))[0]?.status === 'resolved', { what: 'the dead letter resolved' });
    // Resolved means the replay was accepted (the task reset); the model's breaker may still be waiting for its probe.
    await waitFor(async () => (await findAgentTask(bed.dataSource, event.id))?.state === 'done', {
      what: 'the replayed task done',
    });
    expect(await findAgentTask(bed.dataSource, event.id)).toMatchObject({
      state: 'done',
      attempts: 1,
      replayCount: 2,
      result: { category: 'change' },
    });
    expect(await rowsOf(event.id)).toHaveLength(1);
  });
});
