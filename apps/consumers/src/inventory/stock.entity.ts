import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Units on hand per SKU, owned by the inventory participant. A reservation takes units out; a release puts them back. */
@Entity('stock')
export class StockEntity {
  @PrimaryColumn('varchar', { length: 200, primaryKeyConstraintName: 'pk_stock' })
  sku: string;

  /** Never below 0: a reservation takes units only where there are enough. */
  @Column('integer')
  available: number;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
