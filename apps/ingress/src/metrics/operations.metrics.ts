import { ConsumerGroupOwnersRepository } from '@app/consumer-runtime';
import { Database, managerRows } from '@app/db';
import { JobMetrics } from '@app/jobs';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { ConsumerLagProbe } from '../admin/lag/consumer-lag.probe';
import { IngressMetrics } from './ingress.metrics';

/**
 * What the alert rules watch beyond the request plane, in the ingress's `/metrics` (the ingress keeps answering while
 * a relay or a consumer group is down): every scheduled job's dead man's switch, each group's lag measured from
 * outside the group, and each group's owner, to be joined into the group's alerts.
 */
@Injectable()
export class OperationsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: IngressMetrics,
    private readonly database: Database,
    private readonly lag: ConsumerLagProbe,
  ) {}

  onModuleInit(): void {
    const registry = this.metrics.registry;
    const database = this.database;
    const lag = this.lag;
    new JobMetrics(registry, async () => managerRows((await database.connection()).manager));
    new Gauge({
      name: 'hookrail_consumer_group_lag',
      help: 'Messages a consumer group still has to read, over its topics and partitions, measured from outside the group',
      labelNames: ['group'],
      registers: [registry],
      async collect() {
        // Kept as last measured while Kafka does not answer, so that an outage does not resolve a lag alert.
        const totals = await lag.byGroup();
        if (!totals) return;
        this.reset();
        for (const [group, total] of totals) this.set({ group }, total);
      },
    });
    new Gauge({
      name: 'hookrail_consumer_group_info',
      help: 'Always 1: who owns a consumer group (team, contact), as its service declares it; join it into alerts',
      labelNames: ['group', 'team', 'contact'],
      registers: [registry],
      async collect() {
        const owners = await new ConsumerGroupOwnersRepository(managerRows((await database.connection()).manager))
          .list()
          .catch(() => undefined);
        if (!owners) return;
        this.reset();
        for (const { group, team, contact } of owners) this.set({ group, team, contact }, 1);
      },
    });
  }
}
