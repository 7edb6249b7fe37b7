import { DataSource, EntityManager } from 'typeorm';
import { bookkeepingQuery } from '../bookkeeping-query';
import { ShipmentStatus } from './shipment.entity';

/** A shipment as its use cases read it after an intent statement. */
export interface ShipmentState {
  status: ShipmentStatus;
  createKey: string | null;
  shipmentId: string | null;
  createCalls: number;
  reason: string | null;
}

/** A create-shipment command's intent, before its carrier call. */
export interface CreateIntent {
  sagaId: string;
  orderId: string;
  createKey: string;
}

const STATE = `status, create_key, shipment_id, create_calls, reason`;

function toState(row: Record<string, unknown>): ShipmentState {
  return {
    status: row.status as ShipmentStatus,
    createKey: (row.create_key as string | null) ?? null,
    shipmentId: (row.shipment_id as string | null) ?? null,
    createCalls: Number(row.create_calls),
    reason: (row.reason as string | null) ?? null,
  };
}

/**
 * The shipping participant's statements. Those before and around the carrier call commit on their own (without
 * waiting for the disk: `bookkeepingQuery`), so that the intent survives a crash of the process during the carrier
 * call and no row lock is held across it; the success after the call is written in the consumer's transaction with
 * the reply (`ctx.write`).
 */
export const ShipmentsRepository = {
  /**
   * The intents to create, in one statement (`IntentBatch`; one per saga): a new row `creating`, or one more call of
   * a row still `creating`; else the row as it is. The state of each saga after it, by saga id.
   */
  async recordCreateIntents(bookkeeping: DataSource, shipments: CreateIntent[]): Promise<Map<string, ShipmentState>> {
    const rows: Array<Record<string, unknown>> = await bookkeepingQuery(
      bookkeeping,
      `WITH upsert AS (
         INSERT INTO shipments (saga_id, order_id, status, create_key, create_calls)
         SELECT saga_id, order_id, 'creating', create_key, 1
           FROM unnest($1::uuid[], $2::varchar[], $3::varchar[]) AS intent(saga_id, order_id, create_key)
         ON CONFLICT (saga_id) DO UPDATE
           SET create_calls = shipments.create_calls + 1, updated_at = now()
           WHERE shipments.status = 'creating'
         RETURNING saga_id, ${STATE}
       )
       SELECT * FROM upsert
       UNION ALL
       SELECT saga_id, ${STATE} FROM shipments
        WHERE saga_id = ANY($1::uuid[]) AND saga_id NOT IN (SELECT saga_id FROM upsert)`,
      [
        shipments.map((shipment) => shipment.sagaId),
        shipments.map((shipment) => shipment.orderId),
        shipments.map((shipment) => shipment.createKey),
      ],
    );
    return new Map(rows.map((row) => [row.saga_id as string, toState(row)]));
  },

  /** The carrier created these: `created`, in the consumer's transaction (queued with `ctx.write`). */
  async markCreated(manager: EntityManager, created: Array<{ sagaId: string; shipmentId: string }>): Promise<void> {
    await manager.query(
      `UPDATE shipments s SET status = 'created', shipment_id = c.shipment_id, updated_at = now()
         FROM unnest($1::uuid[], $2::varchar[]) AS c(saga_id, shipment_id)
        WHERE s.saga_id = c.saga_id AND s.status = 'creating'`,
      [created.map((row) => row.sagaId), created.map((row) => row.shipmentId)],
    );
  },

  async markRejected(bookkeeping: DataSource, sagaId: string, reason: string): Promise<void> {
    await bookkeepingQuery(
      bookkeeping,
      `UPDATE shipments SET status = 'rejected', reason = $2, updated_at = now()
        WHERE saga_id = $1 AND status = 'creating'`,
      [sagaId, reason],
    );
  },

  /**
   * The intent to cancel: `created` or `creating` (maybe created) becomes `cancelling`; with no row a `voided` row is
   * inserted, so a create arriving later is refused; any other status is returned as it is.
   */
  async recordCancelIntent(
    bookkeeping: DataSource,
    shipment: { sagaId: string; orderId: string; cancelKey: string },
  ): Promise<ShipmentState> {
    const rows: Array<Record<string, unknown>> = await bookkeepingQuery(
      bookkeeping,
      `WITH upsert AS (
         INSERT INTO shipments (saga_id, order_id, status, cancel_key, reason)
         VALUES ($1, $2, 'voided', $3, 'cancelled before any shipment')
         ON CONFLICT (saga_id) DO UPDATE
           SET status = 'cancelling', cancel_key = $3, cancel_calls = shipments.cancel_calls + 1, updated_at = now()
           WHERE shipments.status IN ('creating', 'created', 'cancelling')
         RETURNING ${STATE}
       )
       SELECT * FROM upsert
       UNION ALL
       SELECT ${STATE} FROM shipments WHERE saga_id = $1 AND NOT EXISTS (SELECT 1 FROM upsert)`,
      [shipment.sagaId, shipment.orderId, shipment.cancelKey],
    );
    return toState(rows[0]);
  },

  async markCancelled(bookkeeping: DataSource, sagaId: string): Promise<void> {
    await bookkeepingQuery(
      bookkeeping,
      `UPDATE shipments SET status = 'cancelled', updated_at = now() WHERE saga_id = $1 AND status = 'cancelling'`,
      [sagaId],
    );
  },
};
