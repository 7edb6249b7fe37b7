import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DeadLetterStatus } from '../dead-letter-states';

/**
 * One message a consumer group gave up on, indexed from `<group>.dlt` by the dead-letter store. The original
 * message (topic, partition, offset) in its group identifies it: a redelivered dead letter, or a second dead letter
 * for the same message, finds the same row. A replay that fails again updates this row (`replay_count`), it does not
 * add one. `dead → replaying → resolved | dead`; `dead → purged`. In a group that parks keys, an event that arrived
 * while its key was parked is a row too: `parked → replaying → resolved | dead` (unparked in `park_seq` order), or
 * `parked → purged`.
 */
@Entity('dead_letters')
@Index('uq_dead_letters_original', ['group', 'originalTopic', 'originalPartition', 'originalOffset'], { unique: true })
@Index('ix_dead_letters_status_dead_at', ['status', 'deadAt'])
@Index('ix_dead_letters_group_event_id', ['group', 'eventId'])
@Index('ix_dead_letters_parked', ['group', 'key', 'parkSeq'], { where: `status = 'parked'` })
export class DeadLetterEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_dead_letters' })
  id: string;

  /** The consumer group that gave up (its name, as in processed_events). */
  @Column('varchar', { length: 100 })
  group: string;

  /** Null when the message was too malformed to carry one. */
  @Column('varchar', { name: 'event_id', length: 300, nullable: true })
  eventId: string | null;

  @Column('varchar', { length: 200, nullable: true })
  type: string | null;

  /** The Kafka key (aggregate id). */
  @Column('text', { nullable: true })
  key: string | null;

  @Column('varchar', { name: 'original_topic', length: 249 })
  originalTopic: string;

  @Column('integer', { name: 'original_partition' })
  originalPartition: number;

  @Column('bigint', { name: 'original_offset' })
  originalOffset: string;

  /** Where the dead letter itself was read; null for a parked event that has not failed on its own. */
  @Column('varchar', { name: 'dlt_topic', length: 249, nullable: true })
  dltTopic: string | null;

  @Column('integer', { name: 'dlt_partition', nullable: true })
  dltPartition: number | null;

  @Column('bigint', { name: 'dlt_offset', nullable: true })
  dltOffset: string | null;

  /** Where a replay goes: the group's own replay topic, which only that group consumes. */
  @Column('varchar', { name: 'replay_topic', length: 249 })
  replayTopic: string;

  /** The original value, byte for byte. */
  @Column('bytea', { nullable: true })
  payload: Buffer | null;

  /** The original headers (CloudEvents attributes), without the dead-letter ones. */
  @Column('jsonb')
  headers: Record<string, string>;

  @Column('varchar', { name: 'error_class', length: 200 })
  errorClass: string;

  @Column('text', { name: 'error_message' })
  errorMessage: string;

  @Column('text', { name: 'error_stack', nullable: true })
  errorStack: string | null;

  @Column('integer')
  attempts: number;

  @Column('timestamptz', { name: 'first_failed_at', nullable: true })
  firstFailedAt: Date | null;

  /** When the group gave up (the last failure). */
  @Column('timestamptz', { name: 'dead_at' })
  deadAt: Date;

  @Column('varchar', { length: 16, default: 'dead' })
  status: DeadLetterStatus;

  /** How often an operator replayed it. */
  @Column('integer', { name: 'replay_count', default: 0 })
  replayCount: number;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'replayed_at', nullable: true })
  replayedAt: Date | null;

  @Column('timestamptz', { name: 'resolved_at', nullable: true })
  resolvedAt: Date | null;

  @Column('timestamptz', { name: 'purged_at', nullable: true })
  purgedAt: Date | null;

  /** A parked event: its place in its key's queue (from the sequence `dead_letters_park_seq`, arrival order). */
  @Column('bigint', { name: 'park_seq', nullable: true })
  parkSeq: string | null;

  /** A parked event: the dead letter its key waits behind. */
  @Column('uuid', { name: 'blocked_by', nullable: true })
  blockedBy: string | null;
}
