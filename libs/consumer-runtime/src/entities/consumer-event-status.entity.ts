import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ConsumerEventState } from '../consumer-states';

/**
 * The failure history of an event in a group: written by the runtime when an attempt fails (`retrying`), when the
 * event is dead-lettered (`dead`), when it waits behind a dead letter of its key (`parked`, groups that park keys),
 * and when it finally succeeds after failures or a replay (`processed`). An event that succeeds
 * at the first try has no row here; `processed_events` alone says it is done (see findGroupStatuses).
 */
@Entity('consumer_event_status')
@Index('ix_consumer_event_status_event_id', ['eventId'])
export class ConsumerEventStatusEntity {
  @PrimaryColumn('varchar', { length: 100, primaryKeyConstraintName: 'pk_consumer_event_status' })
  group: string;

  @PrimaryColumn('varchar', { name: 'event_id', length: 300, primaryKeyConstraintName: 'pk_consumer_event_status' })
  eventId: string;

  @Column('varchar', { length: 16 })
  status: ConsumerEventState;

  @Column('integer')
  attempts: number;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  /** When the current run of failures began (reset when a replay fails anew): the long retry ceiling counts from it. */
  @Column('timestamptz', { name: 'first_failed_at', nullable: true })
  firstFailedAt: Date | null;
}
