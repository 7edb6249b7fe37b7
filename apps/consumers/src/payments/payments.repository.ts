import { DataSource, EntityManager } from 'typeorm';
import { bookkeepingQuery } from '../bookkeeping-query';
import { PaymentStatus } from './payment.entity';

/** A payment as its use cases read it after an intent statement. */
export interface PaymentState {
  status: PaymentStatus;
  chargeKey: string | null;
  chargeId: string | null;
  chargeCalls: number;
  refundId: string | null;
  refundedAmount: number | null;
  reason: string | null;
  /** The statement created the row (a refund before any charge: `voided`). */
  inserted: boolean;
}

/** A charge command's intent, before its provider call. */
export interface ChargeIntent {
  sagaId: string;
  orderId: string;
  amount: number;
  currency: string;
  chargeKey: string;
}

const STATE = `status, charge_key, charge_id, charge_calls, refund_id, refunded_amount, reason`;

function toState(row: Record<string, unknown>): PaymentState {
  return {
    status: row.status as PaymentStatus,
    chargeKey: (row.charge_key as string | null) ?? null,
    chargeId: (row.charge_id as string | null) ?? null,
    chargeCalls: Number(row.charge_calls),
    refundId: (row.refund_id as string | null) ?? null,
    refundedAmount: row.refunded_amount === null ? null : Number(row.refunded_amount),
    reason: (row.reason as string | null) ?? null,
    inserted: row.inserted === true,
  };
}

/**
 * The payments participant's statements. Those before and around the provider call commit on their own (without
 * waiting for the disk: `bookkeepingQuery`), so that the intent survives a crash of the process during the provider
 * call and no row lock is held across it; the success after the call is written in the consumer's transaction with
 * the reply (`ctx.write`).
 */
export const PaymentsRepository = {
  /**
   * The intents to charge, in one statement (`IntentBatch`; one per saga): a new row `charging`, or one more call of
   * a row still `charging` (the last call's outcome is unknown). Any other status is returned as it is, and no call
   * must be made. The state of each saga after it, by saga id.
   */
  async recordChargeIntents(bookkeeping: DataSource, payments: ChargeIntent[]): Promise<Map<string, PaymentState>> {
    const column = <K extends keyof ChargeIntent>(key: K) => payments.map((payment) => payment[key]);
    const rows: Array<Record<string, unknown>> = await bookkeepingQuery(
      bookkeeping,
      `WITH upsert AS (
         INSERT INTO payments (saga_id, order_id, amount, currency, status, charge_key, charge_calls)
         SELECT saga_id, order_id, amount, currency, 'charging', charge_key, 1
           FROM unnest($1::uuid[], $2::varchar[], $3::bigint[], $4::varchar[], $5::varchar[])
                AS intent(saga_id, order_id, amount, currency, charge_key)
         ON CONFLICT (saga_id) DO UPDATE
           SET charge_calls = payments.charge_calls + 1, updated_at = now()
           WHERE payments.status = 'charging'
         RETURNING saga_id, ${STATE}, (xmax = 0) AS inserted
       )
       SELECT * FROM upsert
       UNION ALL
       SELECT saga_id, ${STATE}, false FROM payments
        WHERE saga_id = ANY($1::uuid[]) AND saga_id NOT IN (SELECT saga_id FROM upsert)`,
      [column('sagaId'), column('orderId'), column('amount'), column('currency'), column('chargeKey')],
    );
    return new Map(rows.map((row) => [row.saga_id as string, toState(row)]));
  },

  /**
   * The provider charged these: `charged`, in the consumer's transaction (queued with `ctx.write`, committed with the
   * commands' replies and dedupe rows). Returns the sagas whose payment was not `charging` any more (a refund began
   * meanwhile).
   */
  async markCharged(manager: EntityManager, charged: Array<{ sagaId: string; chargeId: string }>): Promise<string[]> {
    const rows: Array<{ saga_id: string }> = await manager.query(
      `UPDATE payments p SET status = 'charged', charge_id = c.charge_id, updated_at = now()
         FROM unnest($1::uuid[], $2::varchar[]) AS c(saga_id, charge_id)
        WHERE p.saga_id = c.saga_id AND p.status = 'charging'
        RETURNING p.saga_id`,
      [charged.map((row) => row.sagaId), charged.map((row) => row.chargeId)],
    );
    const moved = new Set(rows.map((row) => row.saga_id));
    return charged.filter((row) => !moved.has(row.sagaId)).map((row) => row.sagaId);
  },

  /** The provider declined: nothing charged. */
  async markDeclined(bookkeeping: DataSource, sagaId: string, reason: string): Promise<void> {
    await bookkeepingQuery(
      bookkeeping,
      `UPDATE payments SET status = 'declined', reason = $2, updated_at = now() WHERE saga_id = $1 AND status = 'charging'`,
      [sagaId, reason],
    );
  },

  /**
   * The intent to refund. A payment `charged` or `charging` (maybe charged) becomes `refunding` (and one more refund
   * call of one already `refunding`); with no row at all a `voided` row is inserted, so a charge arriving later is
   * refused; any other status is returned as it is.
   */
  async recordRefundIntent(
    bookkeeping: DataSource,
    payment: { sagaId: string; orderId: string; amount: number; currency: string; refundKey: string },
  ): Promise<PaymentState> {
    const rows: Array<Record<string, unknown>> = await bookkeepingQuery(
      bookkeeping,
      `WITH upsert AS (
         INSERT INTO payments (saga_id, order_id, amount, currency, status, refund_key, reason)
         VALUES ($1, $2, $3, $4, 'voided', $5, 'refunded before any charge')
         ON CONFLICT (saga_id) DO UPDATE
           SET status = 'refunding', refund_key = $5, refund_calls = payments.refund_calls + 1, updated_at = now()
           WHERE payments.status IN ('charging', 'charged', 'refunding')
         RETURNING ${STATE}, (xmax = 0) AS inserted
       )
       SELECT * FROM upsert
       UNION ALL
       SELECT ${STATE}, false FROM payments WHERE saga_id = $1 AND NOT EXISTS (SELECT 1 FROM upsert)`,
      [payment.sagaId, payment.orderId, payment.amount, payment.currency, payment.refundKey],
    );
    return toState(rows[0]);
  },

  /** The provider made no charge with the payment's key (a charge call that failed): nothing was refunded. */
  async markVoided(bookkeeping: DataSource, sagaId: string, reason: string): Promise<void> {
    await bookkeepingQuery(
      bookkeeping,
      `UPDATE payments SET status = 'voided', refunded_amount = 0, reason = $2, updated_at = now()
        WHERE saga_id = $1 AND status = 'refunding'`,
      [sagaId, reason],
    );
  },

  async markRefunded(bookkeeping: DataSource, sagaId: string, refundId: string | null, amount: number): Promise<void> {
    await bookkeepingQuery(
      bookkeeping,
      `UPDATE payments SET status = 'refunded', refund_id = $2, refunded_amount = $3, updated_at = now()
        WHERE saga_id = $1 AND status = 'refunding'`,
      [sagaId, refundId, amount],
    );
  },
};
