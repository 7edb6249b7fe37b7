import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * `creating`: the intent is committed, the carrier may or may not have created it; `created`; `rejected` (nothing
 * created); `cancelling`; `cancelled`; `voided`: a cancellation came before any shipment, so a late create is refused.
 */
export type ShipmentStatus = 'creating' | 'created' | 'rejected' | 'cancelling' | 'cancelled' | 'voided';

/** One shipment per saga, owned by the shipping participant. Every change commits on its own, around carrier calls. */
@Entity('shipments')
export class ShipmentEntity {
  @PrimaryColumn('uuid', { name: 'saga_id', primaryKeyConstraintName: 'pk_shipments' })
  sagaId: string;

  @Column('varchar', { name: 'order_id', length: 200 })
  orderId: string;

  @Column('varchar', { length: 16 })
  status: ShipmentStatus;

  /** The create call's `Idempotency-Key`; the cancellation names the shipment by it. */
  @Column('varchar', { name: 'create_key', length: 300, nullable: true })
  createKey: string | null;

  @Column('varchar', { name: 'shipment_id', length: 200, nullable: true })
  shipmentId: string | null;

  @Column('integer', { name: 'create_calls', default: 0 })
  createCalls: number;

  @Column('varchar', { name: 'cancel_key', length: 300, nullable: true })
  cancelKey: string | null;

  @Column('integer', { name: 'cancel_calls', default: 0 })
  cancelCalls: number;

  @Column('text', { nullable: true })
  reason: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
