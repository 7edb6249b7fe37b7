import { AppProcess, cleanEnv, createTestDatabase, deleteTopics, freePort, TestDatabase, testKafka, uniqueName, waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import { connect } from '@app/db';
import { committedOffsets, orderEvent, produce } from '../libs/consumer-runtime/src/testing/order-events.fixture';

describe('consumers process killed between the database commit and the offset commit', () => {
  const kafka = testKafka('consumers-crash-test');
  const namespace = `${uniqueName('crash')}.`;
  const topic = `${namespace}shop.orders`;
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'consumers-crash-test', poolSize: 2 });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
    await deleteTopics([topic, `${namespace}ledger.dlt`, `${namespace}ledger.replay`]);
  });

  it('absorbs the redelivery after kill -9: exactly one ledger entry', async () => {
    const metricsPort = await freePort();
    const env = { DATABASE_URL: database.url, CONSUMER_GROUPS: 'ledger', KAFKA_NAMESPACE: namespace, TOPIC_PARTITIONS: '1', KAFKA_SESSION_TIMEOUT_MS: '6000', DEAD_LETTER_STORE: 'false', METRICS_PORT: String(metricsPort) };
    const doomed = AppProcess.start('consumers', cleanEnv({ ...env, HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS: '1' }));
    await doomed.waitForLog('consumers started');
    const event = orderEvent('ord-crash');
    await produce(kafka, topic, [event]);

    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const entries = () => dataSource.query(`SELECT event_id FROM ledger_entries WHERE event_id = $1`, [event.id]);
    expect(await entries()).toHaveLength(1);
    expect(await committedOffsets(kafka, `${namespace}ledger`, topic)).toEqual([-1]);

    const survivor = AppProcess.start('consumers', cleanEnv(env));
    try {
      await waitFor(async () => (await committedOffsets(kafka, `${namespace}ledger`, topic))[0] === 1, { what: 'the redelivered offset committed', timeoutMs: 40_000 });
      await survivor.waitForLog('consumers started');
      expect(await entries()).toHaveLength(1);
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toMatch(/hookrail_consumer_duplicates_total\{group="ledger",type="shop.order.placed.v1"\} 1/);
      expect(metrics).not.toMatch(/hookrail_consumer_processed_total\{group="ledger"/);
    } finally {
      survivor.signal('SIGTERM');
    }
    const exit = await survivor.exited;
    expect({ ...exit, stderr: survivor.stderr }).toEqual({ code: 0, signal: null, stderr: '' });
  });
});
