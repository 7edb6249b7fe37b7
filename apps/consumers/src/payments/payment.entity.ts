import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * `charging`: the intent is committed, the provider may or may not have charged; `charged`; `declined` (nothing
 * charged); `refunding`: the refund intent is committed; `refunded`; `voided`: a refund came before any charge, or the
 * provider made none (`nothing_to_refund`), so a late charge is refused.
 */
export type PaymentStatus = 'charging' | 'charged' | 'declined' | 'refunding' | 'refunded' | 'voided';

/** One payment per saga, owned by the payments participant. Every change commits on its own, around provider calls. */
@Entity('payments')
export class PaymentEntity {
  @PrimaryColumn('uuid', { name: 'saga_id', primaryKeyConstraintName: 'pk_payments' })
  sagaId: string;

  @Column('varchar', { name: 'order_id', length: 200 })
  orderId: string;

  /** Minor units. */
  @Column('bigint')
  amount: string;

  @Column('char', { length: 3 })
  currency: string;

  @Column('varchar', { length: 16 })
  status: PaymentStatus;

  /** The charge's `Idempotency-Key` (the saga step's key); the refund names the charge by it. */
  @Column('varchar', { name: 'charge_key', length: 300, nullable: true })
  chargeKey: string | null;

  @Column('varchar', { name: 'charge_id', length: 200, nullable: true })
  chargeId: string | null;

  /** Charge calls made (more than one only after a crash or a failed call). */
  @Column('integer', { name: 'charge_calls', default: 0 })
  chargeCalls: number;

  @Column('varchar', { name: 'refund_key', length: 300, nullable: true })
  refundKey: string | null;

  @Column('varchar', { name: 'refund_id', length: 200, nullable: true })
  refundId: string | null;

  @Column('bigint', { name: 'refunded_amount', nullable: true })
  refundedAmount: string | null;

  @Column('integer', { name: 'refund_calls', default: 0 })
  refundCalls: number;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
