import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * pending → claimed → done
 *              ↘ failed (next_attempt_at) → claimed → …
 *              ↘ dead (a permanent error at once; an unknown error after the last attempt; a down model after the
 *                retry ceiling; dead-lettered to `agent.dlt`)
 * A `claimed` row whose lease ran out is claimed again by any worker. A replay of its dead letter resets `dead` to
 * `pending`. While the model's breaker is open, workers claim only a probe and tasks whose ceiling is spent.
 */
export type AgentTaskState = 'pending' | 'claimed' | 'done' | 'failed' | 'dead';

/** One model call per order event, owned by the agent service (apps/consumers/src/agent). */
@Entity('agent_tasks')
@Unique('uq_agent_tasks_event_id', ['eventId'])
@Index('ix_agent_tasks_next_attempt_at', ['nextAttemptAt'])
@Index('ix_agent_tasks_state_dead_lettered_at', ['state', 'deadLetteredAt'])
@Index('ix_agent_tasks_finished_updated_at', ['updatedAt'], { where: `state IN ('done', 'dead')` })
@Index('ix_agent_tasks_failed_first_failed_at', ['firstFailedAt'], { where: `state = 'failed'` })
export class AgentTaskEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_agent_tasks' })
  id: string;

  @Column('varchar', { name: 'event_id', length: 300 })
  eventId: string;

  @Column('varchar', { name: 'event_type', length: 300 })
  eventType: string;

  /** The CloudEvent as consumed: the model's input, and what a dead letter is rebuilt from. */
  @Column('jsonb')
  event: unknown;

  /** Where the event was consumed from (its dead letter names them). */
  @Column('varchar', { name: 'source_topic', length: 300 })
  sourceTopic: string;

  @Column('integer', { name: 'source_partition' })
  sourcePartition: number;

  @Column('varchar', { name: 'source_offset', length: 30 })
  sourceOffset: string;

  @Column('integer', { name: 'replay_count', default: 0 })
  replayCount: number;

  @Column('varchar', { length: 16 })
  state: AgentTaskState;

  /** Claims so far, the current one included. */
  @Column('integer', { default: 0 })
  attempts: number;

  /**
   * When a worker may next claim the task: now when `pending`, after the backoff when `failed`, at the end of the
   * lease when `claimed`, never (`infinity`) when `done` or `dead`. One ordered index serves every claim.
   */
  @Column('timestamptz', { name: 'next_attempt_at', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;

  @Column('varchar', { name: 'claimed_by', length: 200, nullable: true })
  claimedBy: string | null;

  /** Raised by every claim; a worker writes only while the row still carries the token its claim returned. */
  @Column('bigint', { name: 'fencing_token', default: 0 })
  fencingToken: string;

  @Column('jsonb', { nullable: true })
  result: unknown;

  @Column('varchar', { name: 'last_error_class', length: 200, nullable: true })
  lastErrorClass: string | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  /** When the first failure happened (reset by a replay); the retry ceiling of a down model counts from it. */
  @Column('timestamptz', { name: 'first_failed_at', nullable: true })
  firstFailedAt: Date | null;

  /** The dependency the last failed attempt found down (`model`); null when it failed another way. */
  @Column('varchar', { name: 'last_error_dependency', length: 100, nullable: true })
  lastErrorDependency: string | null;

  /** Attempts that ended with the dependency down: they do not count against AGENT_MAX_ATTEMPTS. */
  @Column('integer', { name: 'dependency_failures', default: 0 })
  dependencyFailures: number;

  /** Set once the dead letter was acknowledged by the broker; a dead row without it is still to be dead-lettered. */
  @Column('timestamptz', { name: 'dead_lettered_at', nullable: true })
  deadLetteredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
