import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/**
 * A customer of outbound webhooks (an application, in Svix's words): the operator's own id for it (`uid`, what an
 * event carries in its `customerid` attribute) and a name. Its endpoints receive its events only.
 */
@Entity('webhook_customers')
@Unique('uq_webhook_customers_uid', ['uid'])
export class WebhookCustomerEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_webhook_customers' })
  id: string;

  @Column('varchar', { length: 200 })
  uid: string;

  @Column('varchar', { length: 200 })
  name: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
