import { committedOffsets, orderEvent, produce, TestProcesses, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { DevEmailProvider } from './dev-provider/email-provider.server';

describe('notifier process killed after the provider call, before `sent` is recorded (kill -9)', () => {
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let provider: DevEmailProvider;
  const processes = new TestProcesses();
  const startConsumersProcess = (env: Record<string, string>) => processes.start('consumers', env);

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('notifier-crash', 'notifier');
    provider = await DevEmailProvider.start({ apiKey });
  });

  afterAll(async () => {
    await processes.killAll();
    await provider?.close();
    await bed?.stop();
  });

  it('calls the provider again with the same key after the restart, and exactly one email is sent', async () => {
    const env = bed.processEnv({ METRICS_PORT: '0', EMAIL_PROVIDER_URL: provider.url, EMAIL_PROVIDER_API_KEY: apiKey });
    const doomed = startConsumersProcess({ ...env, HOOKRAIL_FAULT_KILL_AFTER_PROVIDER_CALLS: '1' });
    await doomed.waitForLog('consumers started');
    const event = orderEvent('ord-crash-mail');
    await produce(bed.kafka, bed.topic, [event]);

    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const row = () =>
      bed.dataSource
        .query(`SELECT status, attempts, provider_message_id FROM notifications WHERE event_id = $1`, [event.id])
        .then((rows) => rows[0]);
    expect(provider.stats()).toMatchObject({ sent: 1, requests: 1 });
    expect(await row()).toEqual({ status: 'sending', attempts: 1, provider_message_id: null });
    expect(await committedOffsets(bed.kafka, `${bed.namespace}notifier`, bed.topic)).toEqual([-1]);

    const survivor = startConsumersProcess(env);
    try {
      await waitFor(async () => (await committedOffsets(bed.kafka, `${bed.namespace}notifier`, bed.topic))[0] === 1, {
        what: 'the redelivered offset committed',
        timeoutMs: 40_000,
      });
      expect(provider.stats()).toMatchObject({ sent: 1, requests: 2, replayed: 1, keys: { [event.id]: 2 } });
      expect(await row()).toEqual({ status: 'sent', attempts: 2, provider_message_id: provider.emails[0].id });
      await survivor.waitForLog('consumers started');
    } finally {
      survivor.signal('SIGTERM');
    }
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
  });
});
