import { connect } from '@app/db';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { findTrails } from '../event-trail';

/** The saga an order event started, from rows as the coordinator writes them, merged into the event's timeline. */
describe('saga trail source on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const t0 = Date.UTC(2030, 0, 2, 9, 0, 0);
  const at = (seconds: number) => new Date(t0 + seconds * 1000);

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'saga-trail-test', poolSize: 2 });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('shows each transition of the saga the event started, with step, phase, cause, command sent and state', async () => {
    const [eventId, sagaId, other] = [randomUUID(), randomUUID(), randomUUID()];
    await dataSource.query(
      `INSERT INTO inbound_events (id, source, sender_event_id, type, aggregate_id, payload_hash, payload, received_at, scheme, headers)
       VALUES ($1, 'shop', 'msg_saga', 'shop.order.placed.v1', 'ord_saga', repeat('0', 64), '{}', $2, 'standard-webhooks', '{}')`,
      [eventId, at(0)],
    );
    await dataSource.query(
      `INSERT INTO processed_events ("group", event_id, processed_at) VALUES ('fulfilment', $1, $2)`,
      [eventId, at(1)],
    );
    await dataSource.query(
      `INSERT INTO sagas (id, type, correlation_id, start_event_id, state, step, step_name, attempts, deadline, version,
                          data, failure, last_error, created_at, updated_at)
       VALUES ($1, 'order-fulfilment', 'ord_saga', $2, 'failed', 1, 'charge-card', 0, NULL, 5, '{}', 'undeliverable',
               'refund refused', $3, $4),
              ($5, 'order-fulfilment', 'ord_other', 'another-event', 'running', 0, 'reserve-stock', 1, $4, 1, '{}',
               NULL, NULL, $3, $3)`,
      [sagaId, eventId, at(1), at(9), other],
    );
    const steps: Array<[number, string, string, string, string, string | null, string | null, string | null, number]> =
      [
        [1, 'reserve-stock', 'action', 'started', 'running', null, 'inventory.reserve-stock.v1', null, 1],
        [
          2,
          'reserve-stock',
          'action',
          'succeeded',
          'running',
          'inventory.stock-reserved.v1',
          'payments.charge-card.v1',
          null,
          3,
        ],
        [
          3,
          'charge-card',
          'action',
          'succeeded',
          'running',
          'payments.card-charged.v1',
          'shipping.create-shipment.v1',
          null,
          5,
        ],
        [
          4,
          'create-shipment',
          'action',
          'failed',
          'compensating',
          'shipping.shipment-creation-failed.v1',
          'payments.refund-charge.v1',
          'undeliverable',
          7,
        ],
        [
          5,
          'charge-card',
          'compensation',
          'failed',
          'failed',
          'payments.charge-refund-failed.v1',
          null,
          'refund refused',
          9,
        ],
        [6, 'charge-card', 'operator', 'retry-requested', 'failed', null, null, 'requested by admin:grace', 12],
      ];
    for (const [seq, step, phase, event, state, causeType, sentType, detail, seconds] of steps)
      await dataSource.query(
        `INSERT INTO saga_steps (saga_id, seq, step, phase, event, state, cause_type, cause_id, sent_type, sent_id, detail, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          sagaId,
          seq,
          step,
          phase,
          event,
          state,
          causeType,
          causeType && randomUUID(),
          sentType,
          sentType && randomUUID(),
          detail,
          at(seconds),
        ],
      );
    await dataSource.query(
      `INSERT INTO saga_steps (saga_id, seq, step, phase, event, state, at) VALUES ($1, 1, 'reserve-stock', 'action', 'started', 'running', $2)`,
      [other, at(1)],
    );

    const { events } = await findTrails('ord_saga', { db: dataSource });
    expect(events).toHaveLength(1);
    const saga = events[0].trail.filter((step) => step.source === 'saga');
    expect(saga.map((step) => [step.at.slice(11, 19), step.step, step.level])).toEqual([
      ['09:00:01', 'saga-started', 'info'],
      ['09:00:03', 'saga-succeeded', 'ok'],
      ['09:00:05', 'saga-succeeded', 'ok'],
      ['09:00:07', 'saga-failed', 'warn'],
      ['09:00:09', 'saga-failed', 'error'],
      ['09:00:12', 'saga-retry-requested', 'info'],
    ]);
    expect(saga[3].summary).toBe(
      'order-fulfilment saga: create-shipment action failed on shipping.shipment-creation-failed.v1 (undeliverable); ' +
        'sent payments.refund-charge.v1; now compensating',
    );
    expect(saga[5].summary).toBe(
      'order-fulfilment saga: retry of charge-card requested by admin:grace; its compensation is sent again',
    );
    expect(saga[4].detail).toMatchObject({
      sagaId,
      type: 'order-fulfilment',
      correlationId: 'ord_saga',
      seq: 5,
      step: 'charge-card',
      phase: 'compensation',
      state: 'failed',
      causeType: 'payments.charge-refund-failed.v1',
      sentType: null,
      sagaState: 'failed',
    });
    // In one timeline with the receipt and the coordinator's group applying the event.
    expect(events[0].trail.map((step) => step.step).slice(0, 3)).toEqual(['received', 'published', 'applied']);

    const untouched = randomUUID();
    await dataSource.query(`INSERT INTO processed_events ("group", event_id, processed_at) VALUES ('ledger', $1, $2)`, [
      untouched,
      at(0),
    ]);
    expect((await findTrails(untouched, { db: dataSource })).events[0].trail.map((step) => step.source)).toEqual([
      'consumer-groups',
    ]);
  });
});
