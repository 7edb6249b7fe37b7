import { connect } from '@app/db';
import { createTestDatabase, deleteTopics, freePort, TestDatabase, testKafka, uniqueName, TestProcesses, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { orderEvent, produce } from '../../../../libs/consumer-runtime/src/testing/order-events.fixture';
import { FakeModelServer } from './dev-model/model.server';
import { findAgentTask } from './find-agent-task';

describe('agent worker killed mid-call (kill -9)', () => {
  const kafka = testKafka('agent-crash-test');
  const namespace = `${uniqueName('agent-crash')}.`;
  const topic = `${namespace}shop.orders`;
  const apiKey = randomBytes(16).toString('hex');
  let database: TestDatabase;
  let dataSource: DataSource;
  let model: FakeModelServer;
  const processes = new TestProcesses();
  const startConsumersProcess = (env: Record<string, string>) => processes.start('consumers', env);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'agent-crash-test', poolSize: 2 });
    model = await FakeModelServer.start({ apiKey });
  });

  afterAll(async () => {
    await processes.killAll();
    await model?.close();
    await dataSource?.destroy();
    await database?.drop();
    await deleteTopics([topic, `${namespace}agent.dlt`, `${namespace}agent.replay`]);
  });

  it('reclaims the task after its lease runs out and completes it once', async () => {
    const metricsPort = await freePort();
    const env = {
      DATABASE_URL: database.url,
      CONSUMER_GROUPS: 'agent',
      // This process only: no dead-letter store, so SIGTERM finds the shutdown handler right after 'consumers started'.
      DEAD_LETTER_STORE: 'false',
      KAFKA_NAMESPACE: namespace,
      TOPIC_PARTITIONS: '1',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      MODEL_BASE_URL: model.baseUrl,
      MODEL_API_KEY: apiKey,
      AGENT_WORKERS: '1',
      AGENT_LEASE_MS: '1500',
      AGENT_POLL_INTERVAL_MS: '100',
    };
    model.configure({ nextLatenciesMs: [60_000] });
    const doomed = startConsumersProcess({ ...env, METRICS_PORT: '0' });
    await doomed.waitForLog('consumers started');
    const event = orderEvent('ord-crash-agent', { data: { note: 'gift for my mother' } });
    await produce(kafka, topic, [event]);

    await waitFor(() => model.stats().inFlight === 1, { what: 'the model call in flight' });
    const claimed = await findAgentTask(dataSource, event.id);
    expect(claimed).toMatchObject({ state: 'claimed', attempts: 1, claimedBy: expect.stringContaining(`/${doomed.child.pid}/`) });
    doomed.signal('SIGKILL');
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const survivor = startConsumersProcess({ ...env, METRICS_PORT: String(metricsPort) });
    try {
      const done = await waitFor(
        async () => {
          const task = await findAgentTask(dataSource, event.id);
          return task?.state === 'done' ? task : undefined;
        },
        { what: 'the task done by the survivor', timeoutMs: 30_000 },
      );
      expect(done).toMatchObject({ attempts: 2, claimedBy: expect.stringContaining(`/${survivor.child.pid}/`), result: { category: 'gift' } });
      const [{ fencing_token }] = await dataSource.query(`SELECT fencing_token FROM agent_tasks WHERE event_id = $1`, [event.id]);
      expect(fencing_token).toBe('2');
      expect(model.stats()).toMatchObject({ requests: 2, completed: 1, abandoned: 1 });

      await survivor.waitForLog('consumers started');
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toMatch(/^hookrail_agent_lease_expiries_total 1$/m);
      expect(metrics).toMatch(/^hookrail_agent_tasks\{state="done"\} 1$/m);
      expect(metrics).toMatch(/^hookrail_agent_model_duration_seconds_count\{outcome="ok"\} 1$/m);
    } finally {
      survivor.signal('SIGTERM');
    }
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
  });
});
