import { ParkedKeysRepository } from '@app/dead-letters';
import { Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/**
 * The parked keys of the groups that park keys in this process, read from Postgres at scrape time (the truth is
 * shared by every process of a group, so each reports the same numbers). One query per scrape feeds all three.
 */
export class ParkingMetrics {
  private readonly groups = new Map<string, DataSource>();
  private readonly keys: Gauge<'group'>;
  private readonly events: Gauge<'group'>;
  private readonly oldest: Gauge<'group'>;
  private reading?: Promise<void>;

  constructor(registry: Registry) {
    const registers = [registry];
    const collect = () => this.read();
    this.keys = new Gauge({
      name: 'hookrail_consumer_parked_keys',
      help: 'Keys the group holds back behind a dead letter (read from parked_keys at scrape time)',
      labelNames: ['group'],
      registers,
      collect,
    });
    this.events = new Gauge({
      name: 'hookrail_consumer_parked_events',
      help: 'Events parked behind their key until it unparks (read at scrape time)',
      labelNames: ['group'],
      registers,
      collect,
    });
    this.oldest = new Gauge({
      name: 'hookrail_consumer_parked_oldest_age_seconds',
      help: 'Seconds since the longest-parked key of the group was parked, 0 with none (read at scrape time)',
      labelNames: ['group'],
      registers,
      collect,
    });
  }

  /** The group parks keys in this process: report it. */
  track(group: string, dataSource: DataSource): void {
    this.groups.set(group, dataSource);
  }

  /** The gauges of one scrape ask together; they share one read. */
  private read(): Promise<void> {
    this.reading ??= this.query().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async query(): Promise<void> {
    const byDataSource = new Map<DataSource, string[]>();
    for (const [group, dataSource] of this.groups)
      byDataSource.set(dataSource, [...(byDataSource.get(dataSource) ?? []), group]);
    for (const [dataSource, groups] of byDataSource) {
      for (const stats of await new ParkedKeysRepository(dataSource).stats(groups)) {
        this.keys.set({ group: stats.group }, stats.keys);
        this.events.set({ group: stats.group }, stats.events);
        this.oldest.set({ group: stats.group }, stats.oldestAgeSeconds);
      }
    }
  }
}
