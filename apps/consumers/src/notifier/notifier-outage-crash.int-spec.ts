import { findGroupStatuses } from '@app/consumer-runtime';
import { orderEvent, produce, TestProcesses, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { DevEmailProvider } from './dev-provider/email-provider.server';

describe('notifier process killed (kill -9) while its events wait for a down email provider', () => {
  const EVENTS = 12;
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let provider: DevEmailProvider;
  const processes = new TestProcesses();

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('notifier-wait-crash', 'notifier');
    provider = await DevEmailProvider.start({ apiKey, behaviour: { failureRate: 1, failStatus: 503 } });
  });

  afterAll(async () => {
    await processes.killAll();
    await provider?.close();
    await bed?.stop();
  });

  it('retries the waiting events after the restart: every email sent once, none lost, none dead-lettered', async () => {
    const env = bed.processEnv({
      METRICS_PORT: '0',
      TOPIC_PARTITIONS: '2',
      EMAIL_PROVIDER_URL: provider.url,
      EMAIL_PROVIDER_API_KEY: apiKey,
      CONSUMER_BREAKER_PROBE_MS: '1000',
      CONSUMER_BREAKER_PROBE_MAX_MS: '2000',
    });
    const doomed = processes.start('consumers', env);
    await doomed.waitForLog('consumers started');
    const events = Array.from({ length: EVENTS }, (_, index) => orderEvent(`ord-wait-${index}`));
    await produce(bed.kafka, bed.topic, events);

    await waitFor(() => doomed.logged('dependency unavailable: breaker open, waiting partitions paused'), {
      what: 'the breaker open',
    });
    const waiting = async () =>
      bed.dataSource.query(
        `SELECT event_id, first_failed_at FROM consumer_event_status WHERE "group" = 'notifier' AND status = 'retrying'`,
      );
    await waitFor(async () => (await waiting()).length >= 1, { what: 'an event waiting' });
    doomed.signal('SIGKILL');
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const killedAt = new Date();
    const before = new Map(
      (await waiting()).map((row: { event_id: string; first_failed_at: Date }) => [row.event_id, row.first_failed_at]),
    );
    expect(await bed.committed()).toBe(0);
    expect(provider.stats().sent).toBe(0);

    provider.configure({ failureRate: 0 });
    const survivor = processes.start('consumers', env);
    await waitFor(async () => (await bed.committed()) === EVENTS, {
      what: 'every offset committed after the restart',
      timeoutMs: 45_000,
    });
    const keys = provider.emails.map((email) => email.idempotencyKey).sort();
    expect(keys).toEqual(events.map((event) => event.id).sort());
    const rows = await bed.dataSource.query(`SELECT status, count(*)::int AS n FROM notifications GROUP BY status`);
    expect(rows).toEqual([{ status: 'sent', n: EVENTS }]);
    for (const event of events) {
      expect(await findGroupStatuses(bed.dataSource, event.id)).toEqual([
        expect.objectContaining({ group: 'notifier', status: 'processed' }),
      ]);
    }
    const statuses = await bed.dataSource.query(
      `SELECT event_id, first_failed_at FROM consumer_event_status WHERE "group" = 'notifier'`,
    );
    // The retry ceiling still counts from the first failure before the kill, not from the restart.
    for (const row of statuses.filter((status: { event_id: string }) => before.has(status.event_id))) {
      expect(row.first_failed_at).toEqual(before.get(row.event_id));
      expect(row.first_failed_at.getTime()).toBeLessThan(killedAt.getTime());
    }
    survivor.signal('SIGTERM');
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
    expect(survivor.logged('dead-lettered')).toBe(false);
  });
});
