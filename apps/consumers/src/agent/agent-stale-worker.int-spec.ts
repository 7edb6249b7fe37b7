import { connect } from '@app/db';
import { AppProcess, cleanEnv, createTestDatabase, deleteTopics, freePort, TestDatabase, testKafka, uniqueName, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { orderEvent, produce } from '../../../../libs/consumer-runtime/src/testing/order-events.fixture';
import { FakeModelServer } from './dev-model/model.server';
import { findAgentTask } from './find-agent-task';

const FENCED = [
  'stale worker: the task was claimed by another worker meanwhile; result discarded',
  'the task was claimed by another worker while the model ran; attempt abandoned',
];

describe('a stale agent worker (paused past its lease with SIGSTOP, then resumed)', () => {
  const kafka = testKafka('agent-stale-test');
  const namespace = `${uniqueName('agent-stale')}.`;
  const topic = `${namespace}shop.orders`;
  const apiKey = randomBytes(16).toString('hex');
  let database: TestDatabase;
  let dataSource: DataSource;
  let model: FakeModelServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'agent-stale-test', poolSize: 2 });
    model = await FakeModelServer.start({ apiKey });
  });

  afterAll(async () => {
    await model?.close();
    await dataSource?.destroy();
    await database?.drop();
    await deleteTopics([topic, `${namespace}agent.dlt`, `${namespace}agent.replay`]);
  });

  it('cannot overwrite the task another worker took over and completed: the fencing token turns it away', async () => {
    const staleMetricsPort = await freePort();
    const env = {
      DATABASE_URL: database.url,
      CONSUMER_GROUPS: 'agent',
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
    // The first call answers after 3 s, by which time its worker has been paused past the lease.
    model.configure({ nextLatenciesMs: [3_000] });
    const stale = AppProcess.start('consumers', cleanEnv({ ...env, METRICS_PORT: String(staleMetricsPort) }));
    const fresh: AppProcess[] = [];
    try {
      await stale.waitForLog('consumers started');
      const event = orderEvent('ord-stale-agent', { data: { note: 'deliver after 6pm please' } });
      await produce(kafka, topic, [event]);
      await waitFor(() => model.stats().inFlight === 1, { what: 'the first model call in flight' });
      expect(await findAgentTask(dataSource, event.id)).toMatchObject({ state: 'claimed', claimedBy: expect.stringContaining(`/${stale.child.pid}/`) });
      stale.signal('SIGSTOP');

      fresh.push(AppProcess.start('consumers', cleanEnv({ ...env, METRICS_PORT: '0' })));
      const done = await waitFor(
        async () => {
          const task = await findAgentTask(dataSource, event.id);
          return task?.state === 'done' ? task : undefined;
        },
        { what: 'the task done by the second worker', timeoutMs: 30_000 },
      );
      expect(done).toMatchObject({ attempts: 2, claimedBy: expect.stringContaining(`/${fresh[0].child.pid}/`), result: { category: 'delivery' } });
      await waitFor(() => model.stats().completed === 2, { what: "the stale worker's answer written to its socket" });

      stale.signal('SIGCONT');
      await waitFor(() => stale.logLines().some((line) => FENCED.includes(String(line.msg))), { what: 'the stale worker turned away' });
      expect(await findAgentTask(dataSource, event.id)).toEqual(done);
      const [{ fencing_token }] = await dataSource.query(`SELECT fencing_token FROM agent_tasks WHERE event_id = $1`, [event.id]);
      expect(fencing_token).toBe('2');
      const metrics = await (await fetch(`http://127.0.0.1:${staleMetricsPort}/metrics`)).text();
      expect(metrics).toMatch(/^hookrail_agent_fenced_writes_total\{operation="(complete|renew)"\} 1$/m);
      expect(metrics).not.toMatch(/^hookrail_agent_attempts_total\{outcome="done"\}/m);
    } finally {
      stale.signal('SIGCONT');
      stale.signal('SIGKILL');
      for (const child of fresh) child.signal('SIGKILL');
    }
    await Promise.all([stale.exited, ...fresh.map((child) => child.exited)]);
  });
});
