import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DeadLetterAction } from '../dead-letter-states';

/** Every replay and purge an operator ran (dry runs change nothing and are not recorded): who, when, what. */
@Entity('dead_letter_audit')
@Index('ix_dead_letter_audit_at', ['at'])
// GIN, so that an event's trail finds the replays of its dead letters; created by its migration, which TypeORM's
// index options cannot express, hence not synchronised.
@Index('ix_dead_letter_audit_dead_letter_ids', { synchronize: false })
export class DeadLetterAuditEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_dead_letter_audit' })
  id: string;

  @Column('timestamptz', { default: () => 'now()' })
  at: Date;

  /** The operator, e.g. `cli:ada` or `admin:ada`. */
  @Column('varchar', { length: 200 })
  actor: string;

  @Column('varchar', { length: 16 })
  action: DeadLetterAction;

  /** The selection as given: `{ "ids": [...] }` or the filter fields. */
  @Column('jsonb')
  filter: Record<string, unknown>;

  /** Rows the action changed. */
  @Column('integer')
  count: number;

  @Column('uuid', { name: 'dead_letter_ids', array: true })
  deadLetterIds: string[];
}
