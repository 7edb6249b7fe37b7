import { Closable } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { SHOP_ORDER_PAID_V1 } from '@app/contracts';
import { orderEvent, produce, TopicReader, waitFor } from '@app/testing';
import { ConsumersTestBed } from '../testing/consumers-fixtures';

describe('ledger: the currencies it keeps books in (LEDGER_CURRENCIES)', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable;
  let dlt: TopicReader;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('ledger-currencies', 'ledger');
    consumers = await bed.startConsumers({ LEDGER_CURRENCIES: 'EUR,USD' });
    dlt = await TopicReader.start(`${bed.namespace}ledger.dlt`);
  });

  afterAll(async () => {
    await dlt?.stop();
    await consumers?.close();
    await bed.stop();
  });

  it('dead-letters an order event in another currency at once and books the events around it', async () => {
    const placed = orderEvent('ord-eur', { data: { amount: 700 } });
    const yen = orderEvent('ord-jpy', { data: { amount: 9_000, currency: 'JPY' } });
    const paid = orderEvent('ord-eur', {
      type: SHOP_ORDER_PAID_V1,
      data: { amount: 700, paymentId: 'pay_7', paidAt: new Date().toISOString() },
    });
    await produce(bed.kafka, bed.topic, [placed, yen, paid]);
    await waitFor(async () => (await bed.committed()) === 3, { what: 'three offsets committed' });

    const entries: Array<{ order_id: string; kind: string }> = await bed.dataSource.query(
      `SELECT order_id, kind FROM ledger_entries ORDER BY id`,
    );
    expect(entries).toEqual([
      { order_id: 'ord-eur', kind: 'receivable' },
      { order_id: 'ord-eur', kind: 'payment' },
    ]);
    expect(await findGroupStatuses(bed.dataSource, yen.id)).toEqual([
      expect.objectContaining({
        group: 'ledger',
        status: 'dead',
        attempts: 1,
        lastError: expect.stringContaining('the ledger keeps no account in JPY'),
      }),
    ]);
    await waitFor(() => dlt.messages.length === 1, { what: 'one dead letter' });
    expect(dlt.messages[0].headers).toEqual(
      expect.objectContaining({ ce_id: yen.id, hookrail_dlt_error_class: 'NoLedgerAccountError' }),
    );
  });
});
