import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One delivery the ingress rejected (any answer but 2xx to `POST /webhooks/:source` or `POST /events`): why, and what
 * arrived, without credentials or signatures. Bounded: after each write only the newest `REJECTIONS_KEPT_PER_SOURCE`
 * rows of each source are kept. Never an event: a rejected delivery writes no `inbound_events` or `outbox` row.
 */
@Entity('source_rejections')
@Index('ix_source_rejections_source', ['source', 'id'])
export class SourceRejectionEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_source_rejections' })
  id: string;

  /** The configured source, `cloudevents` (POST /events) or `unknown` (a name no source has). */
  @Column('varchar', { length: 64 })
  source: string;

  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;

  /** The HTTP status answered. */
  @Column('smallint')
  status: number;

  /** Why, e.g. `invalid_signature`, `timestamp_outside_tolerance`, `invalid_event`: the counter's `reason` label. */
  @Column('varchar', { length: 64 })
  reason: string;

  /** What the sender was told. */
  @Column('varchar', { length: 1000 })
  message: string;

  /** The request path as received (cut at 300 characters): names the source a misdirected sender used. */
  @Column('varchar', { length: 300 })
  path: string;

  /** The request headers without credentials and signatures. */
  @Column('jsonb')
  headers: Record<string, string>;

  /** The body's length in bytes (the Content-Length header when the body was refused unread). */
  @Column('integer', { name: 'body_bytes' })
  bodyBytes: number;

  /** The start of the body, with the values of secret-looking fields redacted. */
  @Column('text', { name: 'body_prefix' })
  bodyPrefix: string;

  /** What the answer listed besides its message, e.g. the field errors of an invalid event. */
  @Column('jsonb', { nullable: true })
  details: Record<string, unknown> | null;
}
