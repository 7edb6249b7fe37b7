import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/**
 * A signing secret (`whsec_…`) of an endpoint. Every secret not yet expired signs every delivery, so a rotation
 * (new secret added, the old one given an expiry) has an overlap in which receivers can switch. Only the delivery
 * workers read `secret`; the API shows it once, when it is made, and never logs it.
 */
@Entity('webhook_endpoint_secrets')
@Index('ix_webhook_endpoint_secrets_endpoint_id', ['endpointId'])
export class WebhookEndpointSecretEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_webhook_endpoint_secrets' })
  id: string;

  @Column('uuid', { name: 'endpoint_id' })
  endpointId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'fk_webhook_endpoint_secrets_endpoint' })
  endpoint?: WebhookEndpointEntity;

  @Column('varchar', { length: 100 })
  secret: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  /** Null while current; set by a rotation to the end of the overlap. */
  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;
}
