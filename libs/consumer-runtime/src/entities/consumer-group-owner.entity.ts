import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Who answers for a consumer group's dead letters and alerts, as its service definition declares it. The consumers
 * app writes a row for each group it runs, at start; the console, `hookrail dlq list` and the ingress's
 * `hookrail_consumer_group_info` metric (joined into the alerts) read it, also while the group is down.
 */
@Entity('consumer_group_owners')
export class ConsumerGroupOwnerEntity {
  /** The group's name (as in processed_events and dead_letters, without a namespace). */
  @PrimaryColumn('varchar', { length: 100, primaryKeyConstraintName: 'pk_consumer_group_owners' })
  group: string;

  @Column('varchar', { length: 100 })
  team: string;

  /** Where to reach the team: an address, a channel, a rota. */
  @Column('varchar', { length: 300 })
  contact: string;

  /** The topics the group consumes (without a namespace). */
  @Column('varchar', { length: 249, array: true })
  topics: string[];

  /** How the group works through its partitions: `batch` or `key` (records of different keys at once). */
  @Column('varchar', { length: 8, default: 'batch' })
  concurrency: string;

  /** When a consumers process last started the group. */
  @Column('timestamptz', { name: 'registered_at', default: () => 'now()' })
  registeredAt: Date;
}
