import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** `sending`: the intent is committed and the provider may or may not have been called; `sent`: the provider accepted it. */
export type NotificationStatus = 'sending' | 'sent';

/**
 * One email per order event, owned by the notifier. The row is committed with status `sending` before the provider
 * is called, so a process killed after the call finds it on redelivery and calls again with the same idempotency key
 * (the event id); the provider answers with the first email instead of sending a second one.
 */
@Entity('notifications')
@Unique('uq_notifications_event_id', ['eventId'])
@Index('ix_notifications_sent_at', ['sentAt'], { where: `status = 'sent'` })
export class NotificationEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_notifications' })
  id: string;

  /** Also the provider's Idempotency-Key. */
  @Column('varchar', { name: 'event_id', length: 300 })
  eventId: string;

  @Column('varchar', { name: 'order_id', length: 200 })
  orderId: string;

  @Column('varchar', { length: 320 })
  recipient: string;

  @Column('varchar', { length: 300 })
  subject: string;

  @Column('varchar', { length: 16 })
  status: NotificationStatus;

  /** Provider calls made for this row (more than one only after a crash or a failed call). */
  @Column('integer', { default: 0 })
  attempts: number;

  @Column('varchar', { name: 'provider_message_id', length: 200, nullable: true })
  providerMessageId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'sent_at', nullable: true })
  sentAt: Date | null;
}
