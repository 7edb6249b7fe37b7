import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BreakerState } from '../consumer-states';

/**
 * A consumer group's circuit breaker for one dependency (e.g. `notifier` / `email-provider`), upserted by the runtime
 * on every state change: `open` while the group's partitions that wait on the dependency are paused. With several
 * processes in a group, the row holds the latest change any of them made.
 */
@Entity('dependency_breakers')
export class DependencyBreakerEntity {
  @PrimaryColumn('varchar', { length: 100, primaryKeyConstraintName: 'pk_dependency_breakers' })
  group: string;

  @PrimaryColumn('varchar', { length: 100, primaryKeyConstraintName: 'pk_dependency_breakers' })
  dependency: string;

  @Column('varchar', { length: 16 })
  state: BreakerState;

  /** Open: when the outage began (kept through failed probes). Closed: when it ended. */
  @Column('timestamptz')
  since: Date;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
