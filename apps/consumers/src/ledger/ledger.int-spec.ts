import { Closable } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1 } from '@app/contracts';
import { orderEvent, produce, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { findLedgerBalances } from './ledger-entries.repository';

describe('ledger service (Nest transport on the consumer runtime, real Kafka and Postgres)', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('ledger', 'ledger');
    consumers = await bed.startConsumers({ TOPIC_PARTITIONS: '2' });
  });

  afterAll(async () => {
    await consumers?.close();
    await bed.stop();
  });

  it('writes one entry per order event, signed, in minor units, and one only for an event delivered three times', async () => {
    const placed = orderEvent('ord-100', {
      data: { amount: 12_345, customer: { id: 'cus-ada', email: 'ada@example.com' } },
    });
    const paid = orderEvent('ord-100', {
      type: SHOP_ORDER_PAID_V1,
      data: {
        amount: 12_345,
        customer: { id: 'cus-ada', email: 'ada@example.com' },
        paymentId: 'pay_1',
        paidAt: new Date().toISOString(),
      },
    });
    const other = orderEvent('ord-200', {
      data: { amount: 500, currency: 'USD', customer: { id: 'cus-bob', email: 'bob@example.com' } },
    });
    const cancelled = orderEvent('ord-100', {
      type: SHOP_ORDER_CANCELLED_V1,
      data: { amount: 12_345, customer: { id: 'cus-ada', email: 'ada@example.com' }, reason: 'changed mind' },
    });
    await produce(bed.kafka, bed.topic, [placed, placed, paid, other, placed, cancelled]);

    await waitFor(async () => (await bed.committed()) === 6, { what: 'six offsets committed' });
    const entries: Array<{ event_id: string; kind: string; amount: string }> = await bed.dataSource.query(
      `SELECT event_id, kind, amount FROM ledger_entries WHERE order_id = 'ord-100' ORDER BY id`,
    );
    expect(entries).toEqual([
      { event_id: placed.id, kind: 'receivable', amount: '12345' },
      { event_id: paid.id, kind: 'payment', amount: '-12345' },
      { event_id: cancelled.id, kind: 'reversal', amount: '-12345' },
    ]);
    expect(await findLedgerBalances(bed.dataSource)).toEqual([
      { customerId: 'cus-ada', currency: 'EUR', balance: '-12345', entries: 3 },
      { customerId: 'cus-bob', currency: 'USD', balance: '500', entries: 1 },
    ]);
    expect(await findLedgerBalances(bed.dataSource, 'cus-bob')).toEqual([
      { customerId: 'cus-bob', currency: 'USD', balance: '500', entries: 1 },
    ]);
    expect(await findGroupStatuses(bed.dataSource, placed.id)).toEqual([
      expect.objectContaining({ group: 'ledger', status: 'processed', attempts: 1 }),
    ]);
  });
});
