import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { SagaState } from '../saga-definition';

/**
 * One saga instance, owned by its coordinator (libs/saga; the fulfilment group for `order-fulfilment`). Moved only
 * in a transaction that also writes its next command (or outcome) to the outbox and one `saga_steps` row.
 */
@Entity('sagas')
@Unique('uq_sagas_type_correlation_id', ['type', 'correlationId'])
@Index('ix_sagas_deadline', ['deadline'], { where: 'deadline IS NOT NULL' })
@Index('ix_sagas_start_event_id', ['startEventId'])
@Index('ix_sagas_state_updated_at', ['state', 'updatedAt'])
@Index('ix_sagas_ended_at', ['endedAt'], { where: 'ended_at IS NOT NULL' })
export class SagaEntity {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'pk_sagas' })
  id: string;

  /** The definition's type, e.g. `order-fulfilment`. */
  @Column('varchar', { length: 100 })
  type: string;

  /** The aggregate the saga is about (the order id): one saga per type and correlation id; also the Kafka key. */
  @Column('varchar', { name: 'correlation_id', length: 300 })
  correlationId: string;

  /** The event that started it (`GET /events/:id` of that event shows the saga). */
  @Column('varchar', { name: 'start_event_id', length: 300 })
  startEventId: string;

  @Column('varchar', { length: 16 })
  state: SagaState;

  /** Index of the current step in the definition. */
  @Column('smallint')
  step: number;

  /** Its name, so that readers need no definition. */
  @Column('varchar', { name: 'step_name', length: 100 })
  stepName: string;

  /** Sends of the current command; 0 once the saga ended or failed. */
  @Column('integer')
  attempts: number;

  /** When the current command times out; null when nothing is awaited (ended, or failed until a retry). */
  @Column('timestamptz', { nullable: true })
  deadline: Date | null;

  /** Transitions so far: the `seq` of its latest `saga_steps` row. */
  @Column('integer')
  version: number;

  /** The saga's input (the order). */
  @Column('jsonb')
  data: unknown;

  /** Per step name, what its success reply said (charge id, shipment id…). */
  @Column('jsonb', { default: () => `'{}'` })
  results: unknown;

  /** Why compensation began; the reason of the compensated outcome. */
  @Column('text', { nullable: true })
  failure: string | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  /** Refusals of the current compensation: its policy's attempt budget spent (0 for a new command). */
  @Column('integer', { default: 0 })
  refusals: number;

  /** When the current compensation first failed, refused or unanswered: its policy's ceiling counts from here. */
  @Column('timestamptz', { name: 'failing_since', nullable: true })
  failingSince: Date | null;

  /** The deadline is when a refused compensation is sent again, not when a reply is due. */
  @Column('boolean', { name: 'backing_off', default: false })
  backingOff: boolean;

  /**
   * Who or what cancelled it: an outside event (the shop) or an operator. While the saga runs, an operator's request
   * the coordinator has not carried out yet; afterwards, it ends `cancelled` rather than `compensated`.
   */
  @Column('text', { nullable: true })
  cancellation: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  /** When it became `completed`, `compensated` or `cancelled`. */
  @Column('timestamptz', { name: 'ended_at', nullable: true })
  endedAt: Date | null;
}
