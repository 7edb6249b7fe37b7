import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The analytics group's table: how many events of each type happened on each day (UTC, by the event's time). */
@Entity('analytics_daily_totals')
export class DailyTotalEntity {
  @PrimaryColumn('date', { primaryKeyConstraintName: 'pk_analytics_daily_totals' })
  day: string;

  @PrimaryColumn('varchar', { name: 'event_type', length: 200, primaryKeyConstraintName: 'pk_analytics_daily_totals' })
  eventType: string;

  @Column('bigint')
  events: string;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
