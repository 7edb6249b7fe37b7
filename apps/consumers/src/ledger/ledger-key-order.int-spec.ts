import { Closable } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { CloudEvent, SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1 } from '@app/contracts';
import { replayDeadLetters, startDeadLetterStore } from '@app/dead-letters';
import { createLogger } from '@app/logger';
import { orderEvent, produce, TEST_KAFKA, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../testing/consumers-fixtures';

/** placed → paid → cancelled of one order, in a currency the ledger may or may not keep. */
function orderLife(orderId: string, currency: string): CloudEvent[] {
  const customer = { id: 'cus-ada', email: 'ada@example.com' };
  const base = { orderId, customer, amount: 900, currency };
  return [
    orderEvent(orderId, { data: base }),
    orderEvent(orderId, {
      type: SHOP_ORDER_PAID_V1,
      data: { ...base, paymentId: 'pay_1', paidAt: new Date().toISOString() },
    }),
    orderEvent(orderId, { type: SHOP_ORDER_CANCELLED_V1, data: { ...base, reason: 'changed mind' } }),
  ];
}

describe('ledger keeps an order in order through a dead letter (keyOrder: park; real Kafka and Postgres)', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable | undefined;
  let store: Closable;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('ledger-key-order', 'ledger');
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
    await consumers?.close();
    await store?.close();
    await bed.stop();
  });

  const entriesOf = (orderId: string): Promise<Array<{ event_id: string; kind: string }>> =>
    bed.dataSource.query(`SELECT event_id, kind FROM ledger_entries WHERE order_id = $1 ORDER BY id`, [orderId]);

  it('parks paid and cancelled behind the dead-lettered placed, applies 100 other orders meanwhile, and after the fix and a replay records placed, paid, cancelled in that order', async () => {
    consumers = await bed.startConsumers({ LEDGER_CURRENCIES: 'EUR' });
    const [placed, paid, cancelled] = orderLife('ord-xts', 'XTS');
    const others = Array.from({ length: 100 }, (_, index) => orderEvent(`ord-eur-${index}`));
    await produce(bed.kafka, bed.topic, [placed, ...others.slice(0, 50), paid, ...others.slice(50), cancelled]);

    await waitFor(async () => (await bed.committed()) === 103, { what: 'every offset committed' });
    const [{ applied }] = await bed.dataSource.query(
      `SELECT count(*)::int AS applied FROM ledger_entries WHERE order_id LIKE 'ord-eur-%'`,
    );
    expect(applied).toBe(100);
    expect(await entriesOf('ord-xts')).toEqual([]);
    const rows = await waitFor(
      async () => {
        const found: Array<{ id: string; event_id: string; status: string; error_class: string }> =
          await bed.dataSource.query(
            `SELECT id, event_id, status, error_class FROM dead_letters WHERE key = 'ord-xts' ORDER BY park_seq NULLS FIRST`,
          );
        return found.length === 3 ? found : undefined;
      },
      { what: 'the dead letter indexed' },
    );
    expect(rows.map(({ event_id, status, error_class }) => [event_id, status, error_class])).toEqual([
      [placed.id, 'dead', 'NoLedgerAccountError'],
      [paid.id, 'parked', 'KeyParked'],
      [cancelled.id, 'parked', 'KeyParked'],
    ]);
    expect(await findGroupStatuses(bed.dataSource, paid.id)).toEqual([
      expect.objectContaining({ group: 'ledger', status: 'parked' }),
    ]);

    // The fix: the ledger now keeps XTS. Then the operator replays the dead letter.
    await consumers.close();
    consumers = await bed.startConsumers({ LEDGER_CURRENCIES: 'EUR,XTS' });
    const producer = bed.kafka.producer();
    await producer.connect();
    try {
      const result = await replayDeadLetters(bed.dataSource, async () => producer, {
        filter: { ids: [rows[0].id] },
        actor: 'test:ops',
      });
      expect(result.replayed).toEqual([rows[0].id]);
    } finally {
      await producer.disconnect();
    }

    await waitFor(
      async () => (await bed.dataSource.query(`SELECT 1 FROM parked_keys WHERE key = 'ord-xts'`)).length === 0,
      { what: 'the order released', timeoutMs: 30_000 },
    );
    expect(await entriesOf('ord-xts')).toEqual([
      { event_id: placed.id, kind: 'receivable' },
      { event_id: paid.id, kind: 'payment' },
      { event_id: cancelled.id, kind: 'reversal' },
    ]);
    expect(
      (await bed.dataSource.query(`SELECT status FROM dead_letters WHERE key = 'ord-xts'`)).map(
        (row: { status: string }) => row.status,
      ),
    ).toEqual(['resolved', 'resolved', 'resolved']);
    expect(await findGroupStatuses(bed.dataSource, cancelled.id)).toEqual([
      expect.objectContaining({ group: 'ledger', status: 'processed' }),
    ]);
  });
});
