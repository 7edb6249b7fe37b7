import { connect } from '@app/db';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { findTrails } from './event-trail';

/** Every trail source against rows as the apps write them, at known times. */
describe('findTrails on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const t0 = Date.UTC(2030, 0, 1, 12, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'trail-test', poolSize: 2 });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function received(id: string, senderId: string, aggregateId: string, seconds: number) {
    await dataSource.query(
      `INSERT INTO inbound_events (id, source, sender_event_id, type, aggregate_id, payload_hash, payload, received_at, scheme, headers)
       VALUES ($1, 'shop', $2, 'shop.order.placed.v1', $3, repeat('0', 64), '{}', $4, 'standard-webhooks', '{"webhook-id":"x"}')`,
      [id, senderId, aggregateId, at(seconds)],
    );
  }

  it("merges the receipt, the publish, groups that applied it, a retrying group and the agent's task into one timeline", async () => {
    const id = randomUUID();
    await received(id, 'msg_agent', 'ord_agent', 0);
    await dataSource.query(
      `INSERT INTO outbox (lane, event_id, topic, key, value, headers, created_at, published_at, attempts)
       VALUES (3, $1, 'shop.orders', 'ord_agent', '{}', '{}', $2, $3, 1)`,
      [id, at(0), at(1)],
    );
    await dataSource.query(
      `INSERT INTO processed_events ("group", event_id, processed_at) VALUES ('agent', $1, $2), ('ledger', $1, $3)`,
      [id, at(2), at(2)],
    );
    await dataSource.query(
      `INSERT INTO consumer_event_status ("group", event_id, status, attempts, last_error, updated_at)
       VALUES ('notifier', $1, 'retrying', 3, 'email-provider answered 503', $2)`,
      [id, at(4)],
    );
    await dataSource.query(
      `INSERT INTO agent_tasks (event_id, event_type, event, source_topic, source_partition, source_offset, state, attempts,
                                claimed_by, last_error_class, last_error, next_attempt_at, created_at, updated_at)
       VALUES ($1, 'shop.order.placed.v1', '{}', 'shop.orders', 2, '41', 'failed', 2, 'host/1/0', 'ModelError', 'timeout',
               $2, $3, $4)`,
      [id, at(60), at(2), at(5)],
    );

    const { events } = await findTrails('msg_agent', { db: dataSource });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id, matchedBy: ['senderEventId'], aggregateId: 'ord_agent' });
    expect(events[0].trail.map((step) => [step.at.slice(11, 19), step.step, step.group ?? ''])).toEqual([
      ['12:00:00', 'received', ''],
      ['12:00:00', 'queued', ''],
      ['12:00:01', 'published', ''],
      ['12:00:02', 'applied', 'agent'],
      ['12:00:02', 'applied', 'ledger'],
      ['12:00:02', 'task-created', 'agent'],
      ['12:00:04', 'retrying', 'notifier'],
      ['12:00:05', 'task-failed', 'agent'],
    ]);
    const task = events[0].trail.find((step) => step.step === 'task-failed')!;
    expect(task.summary).toBe(
      'agent task failed (attempts 2, by host/1/0, last error ModelError: timeout, next attempt 2030-01-01T12:01:00.000Z)',
    );
    expect(events[0].trail.find((step) => step.step === 'task-created')!.detail).toEqual({
      topic: 'shop.orders',
      partition: 2,
      offset: '41',
    });
  });

  it('shows a parked row, finds every event of an aggregate, and an event a service wrote by its id', async () => {
    const [first, second, written] = [randomUUID(), randomUUID(), randomUUID()];
    await received(first, 'msg_a1', 'ord_many', 10);
    await received(second, 'msg_a2', 'ord_many', 20);
    await dataSource.query(
      `INSERT INTO outbox (lane, event_id, topic, key, value, headers, created_at, parked_at, attempts, last_error)
       VALUES (1, $1, 'shop.orders', 'ord_many', '{}', '{}', $2, $3, 1, 'KafkaJSProtocolError: MESSAGE_TOO_LARGE'),
              (2, $4, 'fulfilment.commands', 'ord_many', '{}', '{}', $5, $5, 1, NULL)`,
      [second, at(20), at(21), written, at(30)],
    );

    const many = await findTrails('ord_many', { db: dataSource });
    expect(many.events.map((event) => event.id)).toEqual([first, second]);
    expect(many.events[0].trail.map((step) => step.step)).toEqual(['received', 'published']);
    expect(many.events[0].trail[1].summary).toMatch(/pruned by retention/);
    expect(many.events[1].trail.map((step) => [step.step, step.level])).toEqual([
      ['received', 'ok'],
      ['queued', 'info'],
      ['parked', 'error'],
    ]);

    const unreceived = await findTrails(written, { db: dataSource });
    expect(unreceived.events).toHaveLength(1);
    expect(unreceived.events[0]).toMatchObject({ id: written, receivedAt: null, source: null });
    expect(unreceived.events[0].trail.map((step) => step.step)).toEqual(['queued', 'parked']);

    expect((await findTrails('nothing-like-it', { db: dataSource })).events).toEqual([]);
  });
});
