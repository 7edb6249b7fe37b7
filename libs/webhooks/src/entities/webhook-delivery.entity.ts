import { TaskRow } from '@app/tasks/entities';
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
 * enabled (or retention deletes them). `webhook-id` is always the event id (hookrail's).
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
export class WebhookDeliveryEntity extends TaskRow<DeliveryState> {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_webhook_deliveries' })
  id: string;

  @Column('uuid', { name: 'endpoint_id' })
  endpointId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'fk_webhook_deliveries_endpoint' })
  endpoint?: WebhookEndpointEntity;

  @Column('varchar', { name: 'event_source', length: 1000 })
  eventSource: string;

  /**
   * The id the producer gave the event (`POST /events`), sent as its CloudEvents `ce-id`; null when the event is
   * hookrail's own, whose `ce-id` is `event_id`. `webhook-id` and `ce-hookrailid` are always `event_id`.
   */
  @Column('varchar', { name: 'producer_event_id', length: 300, nullable: true })
  producerEventId: string | null;

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

  /** W3C trace context of the span that wrote the row, when the consumers trace: each attempt's span is its child. */
  @Column('varchar', { length: 55, nullable: true })
  traceparent: string | null;

  @Column('timestamptz', { name: 'last_attempt_at', nullable: true })
  lastAttemptAt: Date | null;

  @Column('integer', { name: 'last_status', nullable: true })
  lastStatus: number | null;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;

  @Column('timestamptz', { name: 'failed_at', nullable: true })
  failedAt: Date | null;

  /** An operator asked for a replay while an attempt was in flight: it goes again once that attempt is recorded. */
  @Column('boolean', { name: 'replay_requested', default: false })
  replayRequested: boolean;
}
