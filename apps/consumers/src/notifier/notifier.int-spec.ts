import { Closable } from '@app/config';
import { SHOP_ORDER_PAID_V1 } from '@app/contracts';
import { orderEvent, produce, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { DevEmailProvider } from './dev-provider/email-provider.server';

describe('notifier (real Kafka, Postgres and HTTP provider)', () => {
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let provider: DevEmailProvider;
  let consumers: Closable;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('notifier', 'notifier');
    provider = await DevEmailProvider.start({ apiKey });
    consumers = await bed.startConsumers({ EMAIL_PROVIDER_URL: provider.url, EMAIL_PROVIDER_API_KEY: apiKey });
  });

  afterAll(async () => {
    await consumers?.close();
    await provider?.close();
    await bed?.stop();
  });

  const notification = async (eventId: string) =>
    (
      await bed.dataSource.query(
        `SELECT status, attempts, provider_message_id, recipient, subject FROM notifications WHERE event_id = $1`,
        [eventId],
      )
    )[0];

  it('sends one email for an event delivered three times', async () => {
    const placed = orderEvent('ord-n1', {
      data: { customer: { id: 'cus-ada', email: 'ada@example.com', name: 'Ada' } },
    });
    await produce(bed.kafka, bed.topic, [placed, placed, placed]);

    await waitFor(async () => (await bed.committed()) === 3, { what: 'three offsets committed' });
    expect(provider.stats()).toMatchObject({ sent: 1, requests: 1, keys: { [placed.id]: 1 } });
    expect(provider.emails[0]).toMatchObject({
      idempotencyKey: placed.id,
      to: 'ada@example.com',
      subject: 'We received your order ord-n1',
    });
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
    const paid = orderEvent('ord-n2', {
      type: SHOP_ORDER_PAID_V1,
      data: { paymentId: 'pay_1', paidAt: new Date().toISOString() },
    });
    const before = provider.stats().sent;
    await produce(bed.kafka, bed.topic, [paid]);

    await waitFor(async () => (await notification(paid.id))?.status === 'sent', { what: 'the email sent' });
    expect(provider.stats()).toMatchObject({
      sent: before + 1,
      failed: 2,
      keys: expect.objectContaining({ [paid.id]: 3 }),
    });
    expect(await notification(paid.id)).toMatchObject({ status: 'sent', attempts: 3 });
  });
});
