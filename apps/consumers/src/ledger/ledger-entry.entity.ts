import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** receivable: an order was placed (+); payment: it was paid (−); reversal: it was cancelled (−). */
export type LedgerEntryKind = 'receivable' | 'payment' | 'reversal';

/**
 * One line of the ledger, written by the ledger consumer in the same transaction as its `processed_events` row.
 * `amount` is signed, in minor units: the sum per customer and currency is what the customer owes (negative: what
 * the shop owes back).
 */
@Entity('ledger_entries')
@Index('ix_ledger_entries_customer_currency', ['customerId', 'currency'])
@Index('ix_ledger_entries_order_id', ['orderId'])
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_ledger_entries' })
  id: string;

  @Column('varchar', { name: 'event_id', length: 300 })
  eventId: string;

  @Column('varchar', { name: 'order_id', length: 200 })
  orderId: string;

  @Column('varchar', { name: 'customer_id', length: 200 })
  customerId: string;

  @Column('varchar', { length: 16 })
  kind: LedgerEntryKind;

  @Column('bigint')
  amount: string;

  @Column('char', { length: 3 })
  currency: string;

  @CreateDateColumn({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt: Date;
}
