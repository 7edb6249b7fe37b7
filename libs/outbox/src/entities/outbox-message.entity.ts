import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A message waiting for (or done with) publication to Kafka. Written in the same transaction as its event. */
@Entity('outbox')
@Index('ix_outbox_unpublished', ['lane', 'id'], { where: 'published_at IS NULL' })
@Index('ix_outbox_published_at', ['publishedAt'], { where: 'published_at IS NOT NULL' })
@Index('ix_outbox_parked', ['lane', 'key'], { where: 'parked_at IS NOT NULL AND published_at IS NULL' })
@Index('ix_outbox_event_id', ['eventId'])
export class OutboxMessageEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_outbox' })
  id: string;

  /** hash(key) mod lane count: one relay at a time owns a lane, which keeps per-key order. */
  @Column('smallint')
  lane: number;

  @Column('uuid', { name: 'event_id' })
  eventId: string;

  @Column('varchar', { length: 249 })
  topic: string;

  /** Kafka message key: the aggregate id. */
  @Column('varchar', { length: 300 })
  key: string;

  /** Kafka message value: the CloudEvent's data as JSON (binary content mode). */
  @Column('text')
  value: string;

  /** Kafka headers: ce_* attributes, content-type, traceparent. */
  @Column('jsonb')
  headers: Record<string, string>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'published_at', nullable: true })
  publishedAt: Date | null;

  /**
   * When the row was parked: the broker rejected it for good (e.g. too large). The row and every later row of the
   * same key wait until an operator requeues it (parked_at = NULL) or deletes it; the rest of the lane goes on.
   * `hookrail_outbox_parked_rows` counts these rows.
   */
  @Column('timestamptz', { name: 'parked_at', nullable: true })
  parkedAt: Date | null;

  @Column('integer', { default: 0 })
  attempts: number;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;
}
