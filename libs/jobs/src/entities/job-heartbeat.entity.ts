import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The last run of a scheduled job, one row per job: what an alert watches (`now() - last_succeeded_at`). */
@Entity('job_heartbeats')
export class JobHeartbeatEntity {
  @PrimaryColumn('varchar', { length: 100, primaryKeyConstraintName: 'pk_job_heartbeats' })
  name: string;

  @Column('timestamptz', { name: 'last_started_at' })
  lastStartedAt: Date;

  @Column('timestamptz', { name: 'last_finished_at' })
  lastFinishedAt: Date;

  @Column('integer', { name: 'last_duration_ms' })
  lastDurationMs: number;

  /** Rows the last run deleted or changed. */
  @Column('bigint', { name: 'last_affected' })
  lastAffected: string;

  /** Null when the last run succeeded. */
  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('timestamptz', { name: 'last_succeeded_at', nullable: true })
  lastSucceededAt: Date | null;
}
