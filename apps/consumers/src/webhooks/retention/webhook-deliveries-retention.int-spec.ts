import { connect } from '@app/db';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { pruneWebhookDeliveries } from './webhook-deliveries-retention';

describe('webhook-deliveries-retention', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'webhook-retention-test', poolSize: 2 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('deletes finished deliveries past the window with their attempts, and keeps everything still in play', async () => {
    const endpoint = randomUUID();
    await dataSource.query(
      `INSERT INTO webhook_endpoints (id, url, event_types) VALUES ($1, 'https://hooks.test/', '{*}')`,
      [endpoint],
    );
    const seed = async (name: string, state: string, age: string, deadLettered = false) => {
      const [{ id }] = await dataSource.query(
        `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                         source_topic, source_partition, source_offset, state, created_at, dead_lettered_at)
         VALUES ($1, $2, 'shop.order.placed.v1', '/tests', now(), 'k', '{}', 'shop.orders', 0, '0', $3,
                 now() - $4::interval, CASE WHEN $5 THEN now() END)
         RETURNING id::text`,
        [endpoint, name, state, age, deadLettered],
      );
      await dataSource.query(
        `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, latency_ms, worker)
         VALUES ($1, 1, now(), 1, 'test')`,
        [id],
      );
    };
    await seed('old-delivered', 'delivered', '40 days');
    await seed('old-failed-on-dlt', 'failed', '40 days', true);
    await seed('old-failed-not-yet-on-dlt', 'failed', '40 days');
    await seed('old-pending', 'pending', '40 days');
    await seed('old-sending', 'sending', '40 days');
    await seed('new-delivered', 'delivered', '1 day');

    const result = await pruneWebhookDeliveries(dataSource, { retentionSeconds: 30 * 86_400, batchSize: 1 });
    expect(result).toMatchObject({ ran: true, affected: 2, waitedTooLong: 0 });
    const left = await dataSource.query(`SELECT event_id FROM webhook_deliveries ORDER BY event_id`);
    expect(left.map((row: { event_id: string }) => row.event_id)).toEqual([
      'new-delivered',
      'old-failed-not-yet-on-dlt',
      'old-pending',
      'old-sending',
    ]);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM webhook_delivery_attempts`)).toEqual([{ n: 4 }]);
    const [heartbeat] = await dataSource.query(
      `SELECT last_affected::int AS affected, last_error FROM job_heartbeats WHERE name = 'webhook-deliveries-retention'`,
    );
    expect(heartbeat).toEqual({ affected: 2, last_error: null });
  });

  it('keeps the deliveries waiting for a disabled endpoint as long as the retention, no longer', async () => {
    const disabled = randomUUID();
    await dataSource.query(
      `INSERT INTO webhook_endpoints (id, url, event_types, state, disabled_at)
       VALUES ($1, 'https://hooks.test/paused', '{*}', 'disabled', now() - interval '60 days')`,
      [disabled],
    );
    for (const [name, age] of [
      ['waited-40-days', '40 days'],
      ['waited-31-days', '31 days'],
      ['waited-2-days', '2 days'],
    ])
      await dataSource.query(
        `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, ordering_key, payload,
                                         source_topic, source_partition, source_offset, created_at)
         VALUES ($1, $2, 'shop.order.placed.v1', '/tests', now(), 'k', '{}', 'shop.orders', 0, '0', now() - $3::interval)`,
        [disabled, name, age],
      );

    const result = await pruneWebhookDeliveries(dataSource, { retentionSeconds: 30 * 86_400, batchSize: 1 });
    expect(result).toMatchObject({ ran: true, affected: 2, waitedTooLong: 2 });
    expect(
      await dataSource.query(`SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1`, [disabled]),
    ).toEqual([{ event_id: 'waited-2-days' }]);
  });
});
