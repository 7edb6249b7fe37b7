import { Gauge, Registry } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { ParkedKeysRepository } from './parked-keys.repository';

/**
 * Parked keys in Prometheus, read from Postgres at scrape time: `hookrail_consumer_parked_keys{group}`,
 * `hookrail_consumer_parked_events{group}` and `hookrail_consumer_parked_oldest_age_seconds{group}`, for the groups
 * named (0 while nothing is parked) and every group that holds a parked key. The truth is shared, so the ingress and
 * every consumers process report the same numbers, and the alert fires while the group's own process is down. One
 * query per scrape feeds the three; no new values while the database cannot be read.
 */
export class ParkedKeyMetrics {
  private reading?: Promise<void>;
  private readonly keys: Gauge<'group'>;
  private readonly events: Gauge<'group'>;
  private readonly oldest: Gauge<'group'>;

  constructor(
    registry: Registry,
    private readonly database: () => Promise<DataSource | EntityManager>,
    private readonly groups: readonly string[] = [],
  ) {
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

  /** The gauges of one scrape ask together; they share one read. */
  private read(): Promise<void> {
    this.reading ??= this.query().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async query(): Promise<void> {
    const stats = await this.database()
      .then((db) => new ParkedKeysRepository(db).stats(this.groups))
      .catch(() => undefined);
    if (!stats) return;
    for (const gauge of [this.keys, this.events, this.oldest]) gauge.reset();
    for (const { group, keys, events, oldestAgeSeconds } of stats) {
      this.keys.set({ group }, keys);
      this.events.set({ group }, events);
      this.oldest.set({ group }, oldestAgeSeconds);
    }
  }
}
