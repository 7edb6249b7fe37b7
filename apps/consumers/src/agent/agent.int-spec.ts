import { loadConfig } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { HOOKRAIL_HEADERS, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import { createTestDatabase, deleteTopics, TestDatabase, testKafka, TopicReader, uniqueName, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { committedOffsets, orderEvent, produce } from '../../../../libs/consumer-runtime/src/testing/order-events.fixture';
import { ConsumersEnv } from '../config/consumers.env';
import { startConsumers } from '../consumers.app';
import { FakeModelServer } from './dev-model/model.server';
import { AgentTaskStatus, findAgentTask } from './find-agent-task';

describe('agent service (real Kafka, Postgres and HTTP model)', () => {
  const kafka = testKafka('agent-test');
  const namespace = `${uniqueName('agent-test')}.`;
  const topic = `${namespace}shop.orders`;
  const dlt = `${namespace}agent.dlt`;
  const apiKey = randomBytes(16).toString('hex');
  let database: TestDatabase;
  let dataSource: DataSource;
  let model: FakeModelServer;
  let consumers: Awaited<ReturnType<typeof startConsumers>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'agent-test', poolSize: 2 });
    model = await FakeModelServer.start({ apiKey });
    const config = loadConfig(ConsumersEnv, {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      CONSUMER_GROUPS: 'agent',
      KAFKA_NAMESPACE: namespace,
      METRICS_PORT: '0',
      TOPIC_PARTITIONS: '1',
      MODEL_BASE_URL: model.baseUrl,
      MODEL_API_KEY: apiKey,
      AGENT_WORKERS: '3',
      AGENT_LEASE_MS: '2000',
      AGENT_POLL_INTERVAL_MS: '50',
      AGENT_MAX_ATTEMPTS: '3',
      AGENT_RETRY_BASE_MS: '50',
      AGENT_RETRY_MAX_MS: '200',
    });
    consumers = await startConsumers(config, createLogger('consumers', 'silent'));
  });

  afterAll(async () => {
    await consumers?.close();
    await model?.close();
    await dataSource?.destroy();
    await database?.drop();
    await deleteTopics([topic, dlt, `${namespace}agent.replay`]);
  });

  const committed = async () => (await committedOffsets(kafka, `${namespace}agent`, topic)).reduce((sum, offset) => sum + Math.max(offset, 0), 0);
  const taskIn = (eventId: string, state: AgentTaskStatus['state']) => async () => {
    const task = await findAgentTask(dataSource, eventId);
    return task?.state === state ? task : undefined;
  };

  it('a 10-second model call does not stall the partition: later events on it are consumed and worked meanwhile', async () => {
    model.configure({ nextLatenciesMs: [10_000] });
    const slow = orderEvent('ord-slow', { data: { note: 'please leave the parcel at the back door' } });
    await produce(kafka, topic, [slow]);
    await waitFor(() => model.stats().inFlight === 1, { what: 'the slow model call in flight' });

    const quick = [orderEvent('ord-quick-1', { data: { note: 'it is a gift, wrap it' } }), orderEvent('ord-quick-2', { data: { note: 'wrong size, swap for M' } })];
    await produce(kafka, topic, quick);
    await waitFor(async () => (await committed()) === 3, { what: 'all three offsets committed' });
    for (const event of quick) await waitFor(taskIn(event.id, 'done'), { what: `${event.subject} done` });
    expect(model.stats().inFlight).toBe(1);
    expect(await findAgentTask(dataSource, slow.id)).toMatchObject({ state: 'claimed', attempts: 1 });

    const done = await waitFor(taskIn(slow.id, 'done'), { what: 'the slow task done', timeoutMs: 20_000 });
    // 10 s against a 2 s lease: renewed all along, never taken over.
    expect(done).toMatchObject({ attempts: 1, result: { category: 'delivery', model: 'hookrail-dev' } });
    expect(model.stats()).toMatchObject({ requests: 3, completed: 3 });
  });

  it('a model that always fails: dead after the last attempt with the reason, in agent.dlt; a replay after the fix completes it', async () => {
    const reader = await TopicReader.start(dlt);
    try {
      model.configure({ failureRate: 1, failStatus: 503 });
      const doomed = orderEvent('ord-doomed', { data: { note: 'arrived broken, refund please' } });
      await produce(kafka, topic, [doomed]);

      const dead = await waitFor(taskIn(doomed.id, 'dead'), { what: 'the task dead' });
      expect(dead).toMatchObject({ attempts: 3, lastError: expect.stringMatching(/^ModelUnavailableError: model answered 503/) });
      const letter = await waitFor(() => reader.messages.find((message) => message.headers[HOOKRAIL_HEADERS.dltEventId] === doomed.id), { what: 'the dead letter' });
      expect(letter.key).toBe('ord-doomed');
      expect(JSON.parse(letter.value!)).toEqual(doomed.data);
      expect(letter.headers).toMatchObject({
        ce_id: doomed.id,
        ce_type: SHOP_ORDER_PLACED_V1,
        [HOOKRAIL_HEADERS.dltGroup]: 'agent',
        [HOOKRAIL_HEADERS.dltTopic]: topic,
        [HOOKRAIL_HEADERS.dltPartition]: '0',
        [HOOKRAIL_HEADERS.dltOffset]: '3',
        [HOOKRAIL_HEADERS.dltErrorClass]: 'ModelUnavailableError',
        [HOOKRAIL_HEADERS.dltAttempts]: '3',
      });
      expect(letter.headers[HOOKRAIL_HEADERS.dltErrorMessage]).toMatch(/^model answered 503/);
      expect(await findGroupStatuses(dataSource, doomed.id)).toEqual([expect.objectContaining({ group: 'agent', status: 'dead', attempts: 3 })]);

      model.configure({ failureRate: 0 });
      await produce(kafka, `${namespace}agent.replay`, [{ key: letter.key!, value: letter.value!, headers: { ...letter.headers, [HOOKRAIL_HEADERS.replayCount]: '1' } }]);
      const replayed = await waitFor(taskIn(doomed.id, 'done'), { what: 'the replayed task done' });
      expect(replayed).toMatchObject({ attempts: 1, replayCount: 1, result: { category: 'complaint' } });
      expect(await findGroupStatuses(dataSource, doomed.id)).toEqual([expect.objectContaining({ group: 'agent', status: 'processed' })]);
      expect(reader.messages.filter((message) => message.headers[HOOKRAIL_HEADERS.dltEventId] === doomed.id)).toHaveLength(1);
    } finally {
      await reader.stop();
    }
  });
});
