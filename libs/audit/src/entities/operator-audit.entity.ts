import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One operator action that changed something, whatever it acted on: who, when, what, on which subject, and how many
 * rows it changed: dead-letter replays and purges, parked keys, webhook endpoints, sagas. Dry runs change nothing and
 * are not recorded. Never pruned.
 */
@Entity('operator_audit')
@Index('ix_operator_audit_subject', ['subjectType', 'subjectId', 'at'])
@Index('ix_operator_audit_at', ['at'])
// GIN, so that an event's trail finds the actions on its dead letters; created by its migration, which TypeORM's index
// options cannot express, hence not synchronised.
@Index('ix_operator_audit_affected_ids', { synchronize: false })
export class OperatorAuditEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_operator_audit' })
  id: string;

  @Column('timestamptz', { default: () => 'now()' })
  at: Date;

  /** The operator, e.g. `cli:ada` or `admin:ada`. */
  @Column('varchar', { length: 200 })
  actor: string;

  /** What was done, e.g. `create`, `disable`, `rotate-secret`, `replay`. */
  @Column('varchar', { length: 40 })
  action: string;

  /** What it was done to, e.g. `webhook-endpoint`, `dead-letters` (then the subject is the group, or `*`). */
  @Column('varchar', { name: 'subject_type', length: 40 })
  subjectType: string;

  @Column('varchar', { name: 'subject_id', length: 200 })
  subjectId: string;

  /** The request as given, never a secret. */
  @Column('jsonb')
  details: Record<string, unknown>;

  /** Rows the action changed. */
  @Column('integer')
  count: number;

  /** The rows changed, when the action touched several (e.g. the deliveries a replay sent again). */
  @Column('text', { name: 'affected_ids', array: true, default: () => "'{}'" })
  affectedIds: string[];
}
