import { TaskRow } from '@app/tasks/entities';
import { Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * pending → claimed → done
 *              ↘ failed (next_attempt_at) → claimed → …
 *              ↘ dead (a permanent error at once; an unknown error after the last attempt; a down model after the
 *                retry ceiling; dead-lettered to `agent.dlt`)
 * A `claimed` row whose lease ran out is claimed again by any worker. A replay of its dead letter resets `dead` to
 * `pending`. While the model's breaker is open, workers claim only a probe and tasks whose ceiling is spent.
 */
export type AgentTaskState = 'pending' | 'claimed' | 'done' | 'failed' | 'dead';

/** One model call per order event: the agent service's kind of task, in the one shape of task tables (TaskRow). */
@Entity('agent_tasks')
@Unique('uq_agent_tasks_event_id', ['eventId'])
@Index('ix_agent_tasks_next_attempt_at', ['nextAttemptAt'])
@Index('ix_agent_tasks_state_dead_lettered_at', ['state', 'deadLetteredAt'])
@Index('ix_agent_tasks_finished_updated_at', ['updatedAt'], { where: `state IN ('done', 'dead')` })
@Index('ix_agent_tasks_failed_first_failed_at', ['firstFailedAt'], { where: `state = 'failed'` })
export class AgentTaskEntity extends TaskRow<AgentTaskState> {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'pk_agent_tasks' })
  id: string;

  /** The CloudEvent as consumed: the model's input, and what a dead letter is rebuilt from. */
  @Column('jsonb')
  event: unknown;

  @Column('timestamptz', { name: 'claimed_at', nullable: true })
  claimedAt: Date | null;

  @Column('jsonb', { nullable: true })
  result: unknown;

  @Column('varchar', { name: 'last_error_class', length: 200, nullable: true })
  lastErrorClass: string | null;

  /** When the first failure happened (reset by a replay); the retry ceiling of a down model counts from it. */
  @Column('timestamptz', { name: 'first_failed_at', nullable: true })
  firstFailedAt: Date | null;

  /** The dependency the last failed attempt found down (`model`); null when it failed another way. */
  @Column('varchar', { name: 'last_error_dependency', length: 100, nullable: true })
  lastErrorDependency: string | null;

  /** Attempts that ended with the dependency down: they do not count against AGENT_MAX_ATTEMPTS. */
  @Column('integer', { name: 'dependency_failures', default: 0 })
  dependencyFailures: number;
}
