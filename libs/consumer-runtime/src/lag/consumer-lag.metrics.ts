import { Gauge, Registry } from 'prom-client';
import { GroupPartitionLag, lagByGroup } from './consumer-lag.reader';

/**
 * `hookrail_consumer_lag{group,topic,partition}` and `hookrail_consumer_group_lag{group}`, from a ConsumerLagReader
 * at scrape time: every app that reaches Kafka exports every group's lag, so the alerts do not depend on the process of
 * the group they watch. While Kafka does not answer the last values stay, so that an outage does not resolve an alert.
 */
export class ConsumerLagMetrics {
  constructor(registry: Registry, lag: () => Promise<GroupPartitionLag[] | undefined>) {
    new Gauge({
      name: 'hookrail_consumer_lag',
      help: 'Messages a consumer group still has to read, per topic and partition (nothing committed: from the start of the log)',
      labelNames: ['group', 'topic', 'partition'],
      registers: [registry],
      async collect() {
        const rows = await lag();
        if (!rows) return;
        this.reset();
        for (const row of rows)
          this.set({ group: row.group, topic: row.topic, partition: String(row.partition) }, row.lag);
      },
    });
    new Gauge({
      name: 'hookrail_consumer_group_lag',
      help: 'Messages a consumer group still has to read, over its topics and partitions, measured from outside the group',
      labelNames: ['group'],
      registers: [registry],
      async collect() {
        const rows = await lag();
        if (!rows) return;
        this.reset();
        for (const [group, total] of lagByGroup(rows)) this.set({ group }, total);
      },
    });
  }
}
