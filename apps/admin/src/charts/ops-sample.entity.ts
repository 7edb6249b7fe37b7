import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One point of a console chart: a metric (and series, e.g. a consumer group) sampled for one time slot by the ingress's
 * `ops-samples` job. Kept for OPS_SAMPLE_RETENTION_MINUTES; the slot key makes a second sampler's write a no-op.
 */
@Entity('ops_samples')
export class OpsSampleEntity {
  @PrimaryColumn('varchar', { length: 60, primaryKeyConstraintName: 'pk_ops_samples' })
  metric: string;

  /** The series within the metric (a group name), '' for a single series. */
  @PrimaryColumn('varchar', { length: 200, primaryKeyConstraintName: 'pk_ops_samples' })
  series: string;

  /** The end of the slot the value describes. */
  @PrimaryColumn('timestamptz', { primaryKeyConstraintName: 'pk_ops_samples' })
  at: Date;

  @Column('double precision')
  value: number;
}
