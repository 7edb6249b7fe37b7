import { loadConfig } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1 } from '@app/contracts';
import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import { createTestDatabase, deleteTopics, TestDatabase, testKafka, uniqueName, waitFor } from '@app/testing';
import { DataSource } from 'typeorm';
import { committedOffsets, orderEvent, produce } from '../../../../libs/consumer-runtime/src/testing/order-events.fixture';
import { ConsumersEnv } from '../config/consumers.env';
import { startConsumers } from '../consumers.app';
import { findLedgerBalances } from './ledger-entries.repository';

describe('ledger service (Nest transport on the consumer runtime, real Kafka and Postgres)', () => {
  const kafka = testKafka('ledger-test');
  const namespace = `${uniqueName('ledger-test')}.`;
  const topic = `${namespace}shop.orders`;
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumers: Awaited<ReturnType<typeof startConsumers>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'ledger-test', poolSize: 2 });
    const config = loadConfig(ConsumersEnv, {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      CONSUMER_GROUPS: 'ledger',
      KAFKA_NAMESPACE: namespace,
      METRICS_PORT: '0',
      TOPIC_PARTITIONS: '2',
    });
    consumers = await startConsumers(config, createLogger('consumers', 'silent'));
  });

  afterAll(async () => {
    await consumers?.close();
    await dataSource.destroy();
    await database.drop();
    await deleteTopics([topic, `${namespace}ledger.dlt`, `${namespace}ledger.replay`]);
  });

  const committed = async () => (await committedOffsets(kafka, `${namespace}ledger`, topic)).reduce((sum, offset) => sum + Math.max(offset, 0), 0);

  it('writes one entry per order event, signed, in minor units, and one only for an event delivered three times', async () => {
    const placed = orderEvent('ord-100', { data: { amount: 12_345, customer: { id: 'cus-ada', email: 'ada@example.com' } } });
    const paid = orderEvent('ord-100', { type: SHOP_ORDER_PAID_V1, data: { amount: 12_345, customer: { id: 'cus-ada', email: 'ada@example.com' }, paymentId: 'pay_1', paidAt: new Date().toISOString() } });
    const other = orderEvent('ord-200', { data: { amount: 500, currency: 'USD', customer: { id: 'cus-bob', email: 'bob@example.com' } } });
    const cancelled = orderEvent('ord-100', { type: SHOP_ORDER_CANCELLED_V1, data: { amount: 12_345, customer: { id: 'cus-ada', email: 'ada@example.com' }, reason: 'changed mind' } });
    await produce(kafka, topic, [placed, placed, paid, other, placed, cancelled]);

    await waitFor(async () => (await committed()) === 6, { what: 'six offsets committed' });
    const entries: Array<{ event_id: string; kind: string; amount: string }> = await dataSource.query(`SELECT event_id, kind, amount FROM ledger_entries WHERE order_id = 'ord-100' ORDER BY id`);
    expect(entries).toEqual([
      { event_id: placed.id, kind: 'receivable', amount: '12345' },
      { event_id: paid.id, kind: 'payment', amount: '-12345' },
      { event_id: cancelled.id, kind: 'reversal', amount: '-12345' },
    ]);
    expect(await findLedgerBalances(dataSource)).toEqual([
      { customerId: 'cus-ada', currency: 'EUR', balance: '-12345', entries: 3 },
      { customerId: 'cus-bob', currency: 'USD', balance: '500', entries: 1 },
    ]);
    expect(await findLedgerBalances(dataSource, 'cus-bob')).toEqual([{ customerId: 'cus-bob', currency: 'USD', balance: '500', entries: 1 }]);
    expect(await findGroupStatuses(dataSource, placed.id)).toEqual([expect.objectContaining({ group: 'ledger', status: 'processed', attempts: 1 })]);
  });
});
