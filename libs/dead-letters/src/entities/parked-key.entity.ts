import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A key a consumer group holds back: an event of it was dead-lettered (the head), and every later event of the key
 * that the group receives is parked behind it (`dead_letters` rows in status `parked`) until the head is resolved or
 * purged. Written by the consumer runtime of a group whose service sets `keyOrder: 'park'`, in the transaction that
 * decides an event's fate; deleted when the last parked event is applied, or when an operator purges the key.
 */
@Entity('parked_keys')
export class ParkedKeyEntity {
  @PrimaryColumn('varchar', { length: 100, primaryKeyConstraintName: 'pk_parked_keys' })
  group: string;

  /** The Kafka key (aggregate id). */
  @PrimaryColumn('text', { primaryKeyConstraintName: 'pk_parked_keys' })
  key: string;

  /**
   * The dead letter the key waits behind: the first one, then, while it unparks, the parked event being replayed.
   * Its `dead_letters` row may not exist yet for a moment (the store indexes `<group>.dlt` asynchronously).
   */
  @Column('uuid', { name: 'head_dead_letter_id' })
  headDeadLetterId: string;

  @Column('varchar', { name: 'head_event_id', length: 300, nullable: true })
  headEventId: string | null;

  /** When the key was parked: how long its events have waited. */
  @Column('timestamptz', { name: 'parked_at', default: () => 'now()' })
  parkedAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
