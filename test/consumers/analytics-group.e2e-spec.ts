import { Closable } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1, toKafkaRecord } from '@app/contracts';
import { freePort, orderEvent, produce, TopicReader, waitFor } from '@app/testing';
import { runCli } from '../../apps/cli/src/main';
import { findDailyTotals } from '../../apps/consumers/src/analytics/daily-totals.repository';
import { ConsumersTestBed } from '../../apps/consumers/src/testing/consumers-fixtures';

/**
 * The example group of "Add your own consumer group": a module with @EventPattern handlers and one line in the
 * services registry. Everything else here (dedupe, dead letters, its replay topic, status rows, metrics, lag in
 * `hookrail lag`) is the runtime's, with no code in the group.
 */
describe('the analytics group (the recipe for a new consumer group)', () => {
  let bed: ConsumersTestBed;
  let consumers: Closable;
  let metricsPort: number;
  let deadLetters: TopicReader;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('analytics', 'analytics');
    metricsPort = await freePort();
    consumers = await bed.startConsumers({ METRICS_PORT: String(metricsPort) });
    deadLetters = await TopicReader.start(`${bed.namespace}analytics.dlt`);
  });

  afterAll(async () => {
    await deadLetters?.stop();
    await consumers?.close();
    await bed.stop();
  });

  const placed = orderEvent('ord-a1', { time: '2026-11-29T10:00:00.000Z' });

  it('counts each event once per day (UTC) and type, also one delivered three times', async () => {
    const paid = orderEvent('ord-a1', {
      type: SHOP_ORDER_PAID_V1,
      time: '2026-11-29T10:05:00.000Z',
      data: { paymentId: 'pay_1', paidAt: '2026-11-29T10:05:00Z' },
    });
    // 00:30 at +02:00 is still the 29th in UTC.
    const cancelled = orderEvent('ord-a1', { type: SHOP_ORDER_CANCELLED_V1, time: '2026-11-30T00:30:00+02:00' });
    await produce(bed.kafka, bed.topic, [placed, placed, paid, placed, cancelled]);

    await waitFor(async () => (await bed.committed()) === 5, { what: 'five offsets committed' });
    expect(await findDailyTotals(bed.dataSource)).toEqual([
      { day: '2026-11-29', eventType: 'shop.order.cancelled.v1', events: 1 },
      { day: '2026-11-29', eventType: 'shop.order.paid.v1', events: 1 },
      { day: '2026-11-29', eventType: 'shop.order.placed.v1', events: 1 },
    ]);
    expect(await findGroupStatuses(bed.dataSource, placed.id)).toEqual([
      expect.objectContaining({ group: 'analytics', status: 'processed', attempts: 1 }),
    ]);
  });

  it('dead-letters an invalid event at once to analytics.dlt, and its status row says dead', async () => {
    const invalid = orderEvent('ord-a2', { data: { amount: -1 } });
    await produce(bed.kafka, bed.topic, [invalid]);

    await waitFor(() => deadLetters.messages.length === 1, { what: 'a dead letter on analytics.dlt' });
    expect(deadLetters.messages[0]).toMatchObject({
      key: 'ord-a2',
      headers: expect.objectContaining({
        ce_id: invalid.id,
        hookrail_dlt_group: 'analytics',
        hookrail_dlt_error_class: 'EventValidationError',
        hookrail_dlt_attempts: '1',
      }),
    });
    await waitFor(async () => (await findGroupStatuses(bed.dataSource, invalid.id))[0]?.status === 'dead', {
      what: 'a dead status row',
    });
  });

  it('applies what arrives on analytics.replay, its own replay topic, once', async () => {
    const replayed = orderEvent('ord-a3', { time: '2026-11-28T12:00:00.000Z' });
    const record = toKafkaRecord(replayed);
    record.headers.hookrail_replay_count = '1';
    await produce(bed.kafka, `${bed.namespace}analytics.replay`, [record, record]);

    await waitFor(async () => (await findDailyTotals(bed.dataSource)).some((total) => total.day === '2026-11-28'), {
      what: 'the replayed event counted',
    });
    expect((await findDailyTotals(bed.dataSource)).filter((total) => total.day === '2026-11-28')).toEqual([
      { day: '2026-11-28', eventType: 'shop.order.placed.v1', events: 1 },
    ]);
  });

  it('has its metrics and its lag in hookrail lag', async () => {
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain('hookrail_consumer_processed_total{group="analytics",type="shop.order.placed.v1"} 2');
    expect(metrics).toContain('hookrail_consumer_duplicates_total{group="analytics",type="shop.order.placed.v1"}');
    expect(metrics).toContain('hookrail_consumer_dead_letters_total{group="analytics",type="shop.order.placed.v1"} 1');

    // `hookrail lag` with no --group lists the project's groups, analytics among them.
    const out: string[] = [];
    const env = { ...process.env, DATABASE_URL: bed.database.url, KAFKA_NAMESPACE: bed.namespace };
    expect(
      await runCli(
        ['lag', '--json'],
        (text) => out.push(text),
        () => undefined,
        env,
      ),
    ).toBe(0);
    expect(JSON.parse(out.join('\n'))).toContainEqual(
      expect.objectContaining({
        groupId: `${bed.namespace}analytics`,
        worksBy: 'batch',
        topic: bed.topic,
        partition: 0,
        lag: 0,
      }),
    );
  });
});
