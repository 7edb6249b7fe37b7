import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A scheduled job as the processes that run it registered it: how often it should run and how late it may be before
 * it counts as overdue. Written by `scheduleJob` (through `runExclusiveJob`) on every tick; read by whoever watches
 * the jobs (metrics of every app, `/admin/jobs`, `hookrail jobs`), so a job whose process died is still known.
 */
@Entity('job_schedules')
export class JobScheduleEntity {
  @PrimaryColumn('varchar', { length: 100, primaryKeyConstraintName: 'pk_job_schedules' })
  name: string;

  /** The expected interval between two runs. */
  @Column('integer', { name: 'every_ms' })
  everyMs: number;

  /** Overdue once the last success is older than `every_ms × grace`. */
  @Column('double precision')
  grace: number;

  /** The app that last registered it (e.g. `relay`). */
  @Column('varchar', { length: 100 })
  app: string;

  @Column('timestamptz', { name: 'first_registered_at', default: () => 'now()' })
  firstRegisteredAt: Date;

  /** The last tick of any process that runs it. */
  @Column('timestamptz', { name: 'registered_at', default: () => 'now()' })
  registeredAt: Date;
}
