import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * `reserved`: the lines were taken from stock; `refused`: not enough stock, nothing taken; `released`: given back, or
 * released before any reservation (then a late reserve is refused, so a compensated saga never holds stock).
 */
export type ReservationStatus = 'reserved' | 'refused' | 'released';

/** One reservation per saga, owned by the inventory participant: what makes reserve and release idempotent. */
@Entity('stock_reservations')
export class StockReservationEntity {
  @PrimaryColumn('uuid', { name: 'saga_id', primaryKeyConstraintName: 'pk_stock_reservations' })
  sagaId: string;

  @Column('varchar', { name: 'order_id', length: 200 })
  orderId: string;

  @Column('varchar', { length: 16 })
  status: ReservationStatus;

  /** `[{sku, quantity}]` taken from stock (empty unless `reserved` or released after it). */
  @Column('jsonb')
  lines: unknown;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
