import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SagaPhase, SagaState } from '../saga-definition';
import { SagaEventName } from '../saga-transitions';

/** The history of a saga: one row per transition, written in the transaction that made it. */
@Entity('saga_steps')
export class SagaStepEntity {
  @PrimaryColumn('uuid', { name: 'saga_id', primaryKeyConstraintName: 'pk_saga_steps' })
  sagaId: string;

  /** 1, 2, …: the saga's version after this transition. */
  @PrimaryColumn('integer', { primaryKeyConstraintName: 'pk_saga_steps' })
  seq: number;

  /** The step the event is about. */
  @Column('varchar', { length: 100 })
  step: string;

  @Column('varchar', { length: 16 })
  phase: SagaPhase | 'operator';

  /** started, succeeded, failed, timed-out, retried, cancelled; an operator's retry-requested, cancel-requested. */
  @Column('varchar', { length: 32 })
  event: SagaEventName | 'retry-requested' | 'cancel-requested';

  /** The saga's state after the transition. */
  @Column('varchar', { length: 16 })
  state: SagaState;

  /** The message that caused it (a reply's type and id); null for a timeout. */
  @Column('varchar', { name: 'cause_type', length: 300, nullable: true })
  causeType: string | null;

  @Column('varchar', { name: 'cause_id', length: 300, nullable: true })
  causeId: string | null;

  /** The command or outcome it sent through the outbox. */
  @Column('varchar', { name: 'sent_type', length: 300, nullable: true })
  sentType: string | null;

  @Column('varchar', { name: 'sent_id', length: 300, nullable: true })
  sentId: string | null;

  /** A failure reason, a timeout, a backoff, who asked for a retry or a cancel and why. */
  @Column('text', { nullable: true })
  detail: string | null;

  @Column('timestamptz', { default: () => 'clock_timestamp()' })
  at: Date;
}
