import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { WebhookCustomerEntity } from './webhook-customer.entity';

/**
 * A customer's bearer token: an API token (`api`), a single-use portal link (`portal-link`) or the portal session it
 * opened (`session`). Only the sha256 digest is kept; every token expires; revoked, never deleted.
 */
@Entity('customer_tokens')
@Unique('uq_customer_tokens_token_hash', ['tokenHash'])
@Check('ck_customer_tokens_kind', `"kind" IN ('api', 'portal-link', 'session')`)
@Index('ix_customer_tokens_customer', ['customerId'])
export class CustomerTokenEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_customer_tokens' })
  id: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @ManyToOne(() => WebhookCustomerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'customer_id', foreignKeyConstraintName: 'fk_customer_tokens_customer' })
  customer?: WebhookCustomerEntity;

  @Column('varchar', { length: 16 })
  kind: 'api' | 'portal-link' | 'session';

  @Column('varchar', { length: 100 })
  name: string;

  /** sha256 of the token, hex. */
  @Column('varchar', { name: 'token_hash', length: 64 })
  tokenHash: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('varchar', { name: 'created_by', length: 200 })
  createdBy: string;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  /** A portal link: when it was opened (it opens once). */
  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @Column('varchar', { name: 'revoked_by', length: 200, nullable: true })
  revokedBy: string | null;
}
