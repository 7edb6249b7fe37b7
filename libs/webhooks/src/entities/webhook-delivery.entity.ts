import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { DeliveryState } from '../webhook-states';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/**
 * One event to one endpoint, written by the `webhooks` consumer group in the transaction of its dedupe row.
 *
 *   pending ──claim──▶ sending ──2xx──▶ delivered
 *      ▲                  │ other answer, timeout, refused URL
 *      └── next attempt ──┤ (next_attempt_at = now + schedule step with jitter)
 *                         └── last attempt ──▶ failed ──▶ webhooks.dlt;  replay ──▶ pending
 *
 * `next_attempt_at` is when any worker may claim it: the retry time when `pending`, the lease's end when `sending`,
 * `infinity` when finished. Deliveries are written for disabled endpoints too and wait, pending, until the endpoint is
 * enabled (or retention deletes them). `webhook-id` is always the event id.
 */
@Entity('webhook_deliveries')
@Unique('uq_webhook_deliveries_event_endpoint', ['eventId', 'endpointId'])
@Index('ix_webhook_deliveries_due_in_order', ['endpointId', 'nextAttemptAt', 'id'], {
  where: `state IN ('pending', 'sending')`,
})
@Index('ix_webhook_deliveries_key', ['endpointId', 'orderingKey', 'id'], {
  where: `ordered AND state IN ('pending', 'sending')`,
})
@Index('ix_webhook_deliveries_sending', ['endpointId', 'leaseUntil'], { where: `state = 'sending'` })
@Index('ix_webhook_deliveries_endpoint_created', ['endpointId', 'createdAt'])
@Index('ix_webhook_deliveries_failed', ['endpointId', 'createdAt'], { where: `state = 'failed'` })
@Index('ix_webhook_deliveries_to_dead_letter', ['id'], { where: `state = 'failed' AND dead_lettered_at IS NULL` })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_webhook_deliveries' })
  id: string;

  @Column('uuid', { name: 'endpoint_id' })
  endpointId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'fk_webhook_deliveries_endpoint' })
  endpoint?: WebhookEndpointEntity;

  /** The CloudEvent's id: the `webhook-id` of every attempt and replay, so receivers dedupe. */
  @Column('varchar', { name: 'event_id', length: 300 })
  eventId: string;

  @Column('varchar', { name: 'event_type', length: 300 })
  eventType: string;

  @Column('varchar', { name: 'event_source', length: 1000 })
  eventSource: string;

  @Column('timestamptz', { name: 'event_time' })
  eventTime: Date;

  @Column('varchar', { length: 300, nullable: true })
  subject: string | null;

  /** The aggregate id (the event's subject, else its id): ordered endpoints deliver one per key at a time. */
  @Column('varchar', { name: 'ordering_key', length: 300 })
  orderingKey: string;

  /** The endpoint's `ordered` when the row was written, so that only ordered deliveries pay for the key index. */
  @Column('boolean', { default: false })
  ordered: boolean;

  /** The exact body every attempt sends and signs: the event's data as JSON. */
  @Column('text')
  payload: string;

  /** Where the event was consumed (a dead letter names it). */
  @Column('varchar', { name: 'source_topic', length: 249 })
  sourceTopic: string;

  @Column('integer', { name: 'source_partition' })
  sourcePartition: number;

  @Column('varchar', { name: 'source_offset', length: 30 })
  sourceOffset: string;

  @Column('varchar', { length: 16, default: 'pending' })
  state: DeliveryState;

  /** Claims so far, the current one included. */
  @Column('integer', { default: 0 })
  attempts: number;

  @Column('timestamptz', { name: 'next_attempt_at', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;

  @Column('varchar', { name: 'claimed_by', length: 200, nullable: true })
  claimedBy: string | null;

  /**
   * The claiming process's lease-owner key (the backend pid of its session that holds an advisory lock on it): once
   * that session is gone, another process takes the delivery over without waiting for `lease_until`.
   */
  @Column('integer', { name: 'lease_owner', nullable: true })
  leaseOwner: number | null;

  /** Raised by every claim; a worker writes only while the row still carries the token its claim returned. */
  @Column('bigint', { name: 'fencing_token', default: 0 })
  fencingToken: string;

  @Column('timestamptz', { name: 'last_attempt_at', nullable: true })
  lastAttemptAt: Date | null;

  @Column('integer', { name: 'last_status', nullable: true })
  lastStatus: number | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;

  @Column('timestamptz', { name: 'failed_at', nullable: true })
  failedAt: Date | null;

  /** Set once the broker acknowledged the failure's dead letter on `webhooks.dlt`. */
  @Column('timestamptz', { name: 'dead_lettered_at', nullable: true })
  deadLetteredAt: Date | null;

  /** An operator asked for a replay while an attempt was in flight: it goes again once that attempt is recorded. */
  @Column('boolean', { name: 'replay_requested', default: false })
  replayRequested: boolean;

  /** Times an operator sent it again (endpoint replay or a replayed dead letter). */
  @Column('integer', { name: 'replay_count', default: 0 })
  replayCount: number;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
