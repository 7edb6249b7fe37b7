import { connect } from '@app/db';
import { createTestDatabase, deleteTopics, TestDatabase, testKafka, uniqueName, TestProcesses, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { committedOffsets, orderEvent, produce } from '../../../../libs/consumer-runtime/src/testing/order-events.fixture';
import { DevEmailProvider } from './dev-provider/email-provider.server';

describe('notifier process killed after the provider call, before `sent` is recorded (kill -9)', () => {
  const kafka = testKafka('notifier-crash-test');
  const namespace = `${uniqueName('notifier-crash')}.`;
  const topic = `${namespace}shop.orders`;
  const apiKey = randomBytes(16).toString('hex');
  let database: TestDatabase;
  let dataSource: DataSource;
  let provider: DevEmailProvider;
  const processes = new TestProcesses();
  const startConsumersProcess = (env: Record<string, string>) => processes.start('consumers', env);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'notifier-crash-test', poolSize: 2 });
    provider = await DevEmailProvider.start({ apiKey });
  });

  afterAll(async () => {
    await processes.killAll();
    await provider?.close();
    await dataSource?.destroy();
    await database?.drop();
    await deleteTopics([topic, `${namespace}notifier.dlt`, `${namespace}notifier.replay`]);
  });

  it('calls the provider again with the same key after the restart, and exactly one email is sent', async () => {
    const env = {
      DATABASE_URL: database.url,
      CONSUMER_GROUPS: 'notifier',
      // This process only: no dead-letter store, so SIGTERM finds the shutdown handler right after 'consumers started'.
      DEAD_LETTER_STORE: 'false',
      KAFKA_NAMESPACE: namespace,
      TOPIC_PARTITIONS: '1',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      METRICS_PORT: '0',
      EMAIL_PROVIDER_URL: provider.url,
      EMAIL_PROVIDER_API_KEY: apiKey,
    };
    const doomed = startConsumersProcess({ ...env, HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS: '1' });
    await doomed.waitForLog('consumers started');
    const event = orderEvent('ord-crash-mail');
    await produce(kafka, topic, [event]);

    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const row = () => dataSource.query(`SELECT status, attempts, provider_message_id FROM notifications WHERE event_id = $1`, [event.id]).then((rows) => rows[0]);
    expect(provider.stats()).toMatchObject({ sent: 1, requests: 1 });
    expect(await row()).toEqual({ status: 'sending', attempts: 1, provider_message_id: null });
    expect(await committedOffsets(kafka, `${namespace}notifier`, topic)).toEqual([-1]);

    const survivor = startConsumersProcess(env);
    try {
      await waitFor(async () => (await committedOffsets(kafka, `${namespace}notifier`, topic))[0] === 1, { what: 'the redelivered offset committed', timeoutMs: 40_000 });
      expect(provider.stats()).toMatchObject({ sent: 1, requests: 2, replayed: 1, keys: { [event.id]: 2 } });
      expect(await row()).toEqual({ status: 'sent', attempts: 2, provider_message_id: provider.emails[0].id });
      await survivor.waitForLog('consumers started');
    } finally {
      survivor.signal('SIGTERM');
    }
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
  });
});
