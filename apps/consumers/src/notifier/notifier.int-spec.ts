import { loadConfig } from '@app/config';
import { SHOP_ORDER_PAID_V1 } from '@app/contracts';
import { connect } from '@app/db';
import { createLogger } from '@app/logger';
import { createTestDatabase, deleteTopics, TestDatabase, testKafka, uniqueName, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { committedOffsets, orderEvent, produce } from '../../../../libs/consumer-runtime/src/testing/order-events.fixture';
import { ConsumersEnv } from '../config/consumers.env';
import { startConsumers } from '../consumers.app';
import { DevEmailProvider } from './dev-provider/email-provider.server';

describe('notifier (real Kafka, Postgres and HTTP provider)', () => {
  const kafka = testKafka('notifier-test');
  const namespace = `${uniqueName('notifier-test')}.`;
  const topic = `${namespace}shop.orders`;
  const apiKey = randomBytes(16).toString('hex');
  let database: TestDatabase;
  let dataSource: DataSource;
  let provider: DevEmailProvider;
  let consumers: Awaited<ReturnType<typeof startConsumers>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'notifier-test', poolSize: 2 });
    provider = await DevEmailProvider.start({ apiKey });
    const config = loadConfig(ConsumersEnv, {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS,
      CONSUMER_GROUPS: 'notifier',
      KAFKA_NAMESPACE: namespace,
      METRICS_PORT: '0',
      TOPIC_PARTITIONS: '1',
      EMAIL_PROVIDER_URL: provider.url,
      EMAIL_PROVIDER_API_KEY: apiKey,
    });
    consumers = await startConsumers(config, createLogger('consumers', 'silent'));
  });

  afterAll(async () => {
    await consumers?.close();
    await provider?.close();
    await dataSource?.destroy();
    await database?.drop();
    await deleteTopics([topic, `${namespace}notifier.dlt`, `${namespace}notifier.replay`]);
  });

  const committed = async () => (await committedOffsets(kafka, `${namespace}notifier`, topic)).reduce((sum, offset) => sum + Math.max(offset, 0), 0);
  const notification = async (eventId: string) =>
    (await dataSource.query(`SELECT status, attempts, provider_message_id, recipient, subject FROM notifications WHERE event_id = $1`, [eventId]))[0];

  it('sends one email for an event delivered three times', async () => {
    const placed = orderEvent('ord-n1', { data: { customer: { id: 'cus-ada', email: 'ada@example.com', name: 'Ada' } } });
    await produce(kafka, topic, [placed, placed, placed]);

    await waitFor(async () => (await committed()) === 3, { what: 'three offsets committed' });
    expect(provider.stats()).toMatchObject({ sent: 1, requests: 1, keys: { [placed.id]: 1 } });
    expect(provider.emails[0]).toMatchObject({ idempotencyKey: placed.id, to: 'ada@example.com', subject: 'We received your order ord-n1' });
    expect(await notification(placed.id)).toEqual({
      status: 'sent',
      attempts: 1,
      provider_message_id: provider.emails[0].id,
      recipient: 'ada@example.com',
      subject: 'We received your order ord-n1',
    });
  });

  it('retries a failing provider with the same idempotency key and sends once', async () => {
    provider.configure({ failNext: 2, failStatus: 503 });
    const paid = orderEvent('ord-n2', { type: SHOP_ORDER_PAID_V1, data: { paymentId: 'pay_1', paidAt: new Date().toISOString() } });
    const before = provider.stats().sent;
    await produce(kafka, topic, [paid]);

    await waitFor(async () => (await notification(paid.id))?.status === 'sent', { what: 'the email sent' });
    expect(provider.stats()).toMatchObject({ sent: before + 1, failed: 2, keys: expect.objectContaining({ [paid.id]: 3 }) });
    expect(await notification(paid.id)).toMatchObject({ status: 'sent', attempts: 3 });
  });
});
