import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * "This group applied this event." Inserted in the same transaction as the group's effect; the primary key decides
 * whether a redelivery is new or already applied. Pruned after a retention period.
 */
@Entity('processed_events')
@Index('ix_processed_events_event_id', ['eventId'])
@Index('ix_processed_events_processed_at', ['processedAt'])
export class ProcessedEventEntity {
  @PrimaryColumn('varchar', { length: 100, primaryKeyConstraintName: 'pk_processed_events' })
  group: string;

  @PrimaryColumn('varchar', { name: 'event_id', length: 300, primaryKeyConstraintName: 'pk_processed_events' })
  eventId: string;

  @Column('timestamptz', { name: 'processed_at', default: () => 'now()' })
  processedAt: Date;
}
