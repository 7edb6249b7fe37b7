import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/**
 * One attempt of a delivery, as the delivery log shows it: when, the answer's status and first 2 KB, or the error.
 * Written by the claim that starts it (no latency yet: in flight), completed with its outcome.
 */
@Entity('webhook_delivery_attempts')
@Index('ix_webhook_delivery_attempts_delivery_id', ['deliveryId', 'id'])
@Index('uq_webhook_delivery_attempts_claim', ['deliveryId', 'fencingToken'], { unique: true })
export class WebhookDeliveryAttemptEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_webhook_delivery_attempts' })
  id: string;

  @Column('bigint', { name: 'delivery_id' })
  deliveryId: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'fk_webhook_delivery_attempts_delivery' })
  delivery?: WebhookDeliveryEntity;

  /** 1 for the first attempt. */
  @Column('integer')
  attempt: number;

  /** The delivery's fencing token of the claim that made this attempt. */
  @Column('bigint', { name: 'fencing_token', nullable: true })
  fencingToken: string | null;

  @Column('timestamptz', { name: 'started_at' })
  startedAt: Date;

  /** Null while the attempt is in flight. */
  @Column('integer', { name: 'latency_ms', nullable: true })
  latencyMs: number | null;

  /** The HTTP status; null when no answer came (timeout, refused connection, refused URL). */
  @Column('integer', { nullable: true })
  status: number | null;

  /** The first 2 KB of the answer's body. */
  @Column('text', { name: 'response_body', nullable: true })
  responseBody: string | null;

  @Column('text', { nullable: true })
  error: string | null;

  /** The worker that made it (host/pid/slot). */
  @Column('varchar', { length: 200 })
  worker: string;
}
