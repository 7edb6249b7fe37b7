import { connect } from '@app/db';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { findTrails } from '../event-trail';

/** An event's outbound deliveries and their attempts, from rows as the webhooks group and its workers write them. */
describe('webhook deliveries trail source on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const t0 = Date.UTC(2030, 0, 3, 15, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'deliveries-trail-test', poolSize: 2 });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function endpoint(url: string): Promise<string> {
    const id = randomUUID();
    await dataSource.query(`INSERT INTO webhook_endpoints (id, url, event_types) VALUES ($1, $2, '{*}')`, [id, url]);
    return id;
  }

  async function delivery(eventId: string, endpointId: string, fields: Record<string, unknown>): Promise<string> {
    const columns = Object.keys(fields);
    const [{ id }] = await dataSource.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, event_type, event_source, event_time, ordering_key, payload,
                                       source_topic, source_partition, source_offset, ${columns.join(', ')})
       VALUES ($1, $2, 'shop.order.placed.v1', '/sources/shop', $3, 'ord_out', '{}', 'shop.orders', 0, '7',
               ${columns.map((_, index) => `$${index + 4}`).join(', ')})
       RETURNING id`,
      [eventId, endpointId, at(0), ...Object.values(fields)],
    );
    return String(id);
  }

  async function attempt(deliveryId: string, n: number, seconds: number, status: number | null, error: string | null) {
    await dataSource.query(
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, latency_ms, status, error, worker)
       VALUES ($1, $2, $3, 40, $4, $5, 'host/1/0')`,
      [deliveryId, n, at(seconds), status, error],
    );
  }

  it('shows each delivery, every attempt with its status and time, and a delivery that failed for good', async () => {
    const eventId = randomUUID();
    await dataSource.query(
      `INSERT INTO inbound_events (id, source, sender_event_id, type, aggregate_id, payload_hash, payload, received_at, scheme, headers)
       VALUES ($1, 'shop', 'msg_out', 'shop.order.placed.v1', 'ord_out', repeat('0', 64), '{}', $2, 'standard-webhooks', '{}')`,
      [eventId, at(0)],
    );
    const [warehouse, crm] = [await endpoint('https://warehouse.test/hooks'), await endpoint('https://crm.test/in')];
    const delivered = await delivery(eventId, warehouse, {
      state: 'delivered',
      attempts: 2,
      created_at: at(1),
      delivered_at: at(7),
      last_status: 200,
    });
    const failed = await delivery(eventId, crm, {
      state: 'failed',
      attempts: 2,
      created_at: at(1),
      failed_at: at(20),
      last_error: 'timeout: no answer within 10000 ms',
      replay_count: 1,
    });
    await attempt(delivered, 1, 2, 500, 'HTTP 500');
    await attempt(failed, 1, 2, null, 'connect: ECONNREFUSED');
    await attempt(delivered, 2, 7, 200, null);
    await attempt(failed, 2, 19, null, 'timeout: no answer within 10000 ms');
    await delivery(randomUUID(), warehouse, { created_at: at(1) });

    const { events } = await findTrails('msg_out', { db: dataSource });
    const steps = events[0].trail.filter((step) => step.source === 'webhook-deliveries');
    expect(steps.map((step) => [step.at.slice(11, 19), step.step, step.level, step.detail.deliveryId])).toEqual([
      ['15:00:01', 'delivery-queued', 'info', delivered],
      ['15:00:01', 'delivery-queued', 'info', failed],
      ['15:00:02', 'delivery-attempt-failed', 'warn', delivered],
      ['15:00:02', 'delivery-attempt-failed', 'warn', failed],
      ['15:00:07', 'delivered', 'ok', delivered],
      ['15:00:19', 'delivery-attempt-failed', 'warn', failed],
      ['15:00:20', 'delivery-failed', 'error', failed],
    ]);
    expect(steps.every((step) => step.group === 'webhooks')).toBe(true);
    expect(steps.map((step) => step.summary)).toEqual([
      `outbound delivery ${delivered} queued for https://warehouse.test/hooks; now delivered`,
      `outbound delivery ${failed} queued for https://crm.test/in; now failed, replayed 1×`,
      `delivery ${delivered} attempt 1 to https://warehouse.test/hooks: HTTP 500 in 40 ms`,
      `delivery ${failed} attempt 1 to https://crm.test/in: no answer (connect: ECONNREFUSED) in 40 ms`,
      `delivery ${delivered} attempt 2 to https://warehouse.test/hooks: HTTP 200 in 40 ms`,
      `delivery ${failed} attempt 2 to https://crm.test/in: no answer (timeout: no answer within 10000 ms) in 40 ms`,
      `delivery ${failed} to https://crm.test/in failed after 2 attempt(s): timeout: no answer within 10000 ms; ` +
        "replay it from the endpoint's deliveries",
    ]);
    expect(steps[4].detail).toEqual({
      deliveryId: delivered,
      endpointId: warehouse,
      url: 'https://warehouse.test/hooks',
      attempt: 2,
      status: 200,
      latencyMs: 40,
      error: null,
    });
  });
});
