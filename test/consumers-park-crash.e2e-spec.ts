import { Closable } from '@app/config';
import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1 } from '@app/contracts';
import { replayDeadLetters, startDeadLetterStore } from '@app/dead-letters';
import { createLogger } from '@app/logger';
import { freePort, orderEvent, produce, TEST_KAFKA, TestProcesses, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../apps/consumers/src/testing/consumers-fixtures';

describe('consumers killed (kill -9) while a parked key unparks', () => {
  let bed: ConsumersTestBed;
  let store: Closable;
  const processes = new TestProcesses();

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('park-crash', 'ledger');
    store = await startDeadLetterStore(
      {
        databaseUrl: bed.database.url,
        kafka: TEST_KAFKA,
        namespace: bed.namespace,
        groups: ['ledger'],
        createTopics: true,
        topicPartitions: 1,
        retentionSeconds: 86_400,
        retentionEveryMs: 3_600_000,
      },
      createLogger('dlq-store', 'silent'),
    );
  });

  afterAll(async () => {
    await processes.killAll();
    await store?.close();
    await bed.stop();
  });

  const data = { orderId: 'ord-crash', customer: { id: 'cus-ada', email: 'ada@example.com' }, amount: 900 };
  const placed = orderEvent('ord-crash', { data: { ...data, currency: 'XTS' } });
  const paid = (paymentId: string) =>
    orderEvent('ord-crash', {
      type: SHOP_ORDER_PAID_V1,
      data: { ...data, currency: 'XTS', paymentId, paidAt: new Date().toISOString() },
    });
  const behind = [
    paid('pay_1'),
    paid('pay_2'),
    orderEvent('ord-crash', { type: SHOP_ORDER_CANCELLED_V1, data: { ...data, currency: 'XTS', reason: 'late' } }),
  ];

  it('keeps the order and applies each event once after a restart', async () => {
    const metricsPort = await freePort();
    const env = (extra: Record<string, string>) =>
      bed.processEnv({ CONSUMER_UNPARK_RESEND_MS: '2000', METRICS_PORT: String(metricsPort), ...extra });

    // The ledger keeps no XTS account yet: placed is dead-lettered, the rest of its order parks behind it.
    const first = processes.start('consumers', env({ LEDGER_CURRENCIES: 'EUR' }));
    await first.waitForLog('consumers started');
    const others = Array.from({ length: 5 }, (_, index) => orderEvent(`ord-eur-${index}`));
    await produce(bed.kafka, bed.topic, [placed, ...others.slice(0, 2), ...behind, ...others.slice(2)]);
    await waitFor(async () => (await bed.committed()) === 9, { what: 'every offset committed', timeoutMs: 40_000 });
    const head = await waitFor(
      async () =>
        (await bed.dataSource.query(`SELECT id FROM dead_letters WHERE event_id = $1`, [placed.id]))[0] as
          { id: string } | undefined,
      { what: 'the dead letter indexed' },
    );
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/hookrail_consumer_parked_keys\{group="ledger"\} 1\b/);
    expect(metrics).toMatch(/hookrail_consumer_parked_events\{group="ledger"\} 3\b/);
    first.signal('SIGTERM');
    expect((await first.exited).code).toBe(0);

    // The fix ships; the operator replays placed. The process dies right after its second database commit while
    // unparking (the first applies placed and claims pay_1, the second applies pay_1 and claims pay_2), before it
    // sends pay_2 and before it commits pay_1's replay offset.
    const producer = bed.kafka.producer();
    await producer.connect();
    await replayDeadLetters(bed.dataSource, async () => producer, { filter: { ids: [head.id] }, actor: 'test:ops' });
    await producer.disconnect();
    const doomed = processes.start(
      'consumers',
      env({ LEDGER_CURRENCIES: 'EUR,XTS', HOOKRAIL_FAULT_KILL_AFTER_DB_COMMITS: '2' }),
    );
    expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const entries = (): Promise<Array<{ event_id: string; kind: string }>> =>
      bed.dataSource.query(`SELECT event_id, kind FROM ledger_entries WHERE order_id = 'ord-crash' ORDER BY id`);
    expect((await entries()).map((entry) => entry.event_id)).toEqual([placed.id, behind[0].id]);

    // The next process finds pay_2 claimed but never sent: it sends it again, and the rest follows in order.
    const survivor = processes.start('consumers', env({ LEDGER_CURRENCIES: 'EUR,XTS' }));
    await waitFor(
      async () => (await bed.dataSource.query(`SELECT 1 FROM parked_keys WHERE key = 'ord-crash'`)).length === 0,
      { what: 'the order released', timeoutMs: 45_000 },
    );
    expect(await entries()).toEqual([
      { event_id: placed.id, kind: 'receivable' },
      { event_id: behind[0].id, kind: 'payment' },
      { event_id: behind[1].id, kind: 'payment' },
      { event_id: behind[2].id, kind: 'reversal' },
    ]);
    expect(await bed.dataSource.query(`SELECT DISTINCT status FROM dead_letters WHERE key = 'ord-crash'`)).toEqual([
      { status: 'resolved' },
    ]);
    expect(survivor.logged('replay not applied yet; sent again')).toBe(true);
    survivor.signal('SIGTERM');
    const exit = await survivor.exited;
    expect({ ...exit, stderr: survivor.stderr }).toEqual({ code: 0, signal: null, stderr: '' });
  });
});
