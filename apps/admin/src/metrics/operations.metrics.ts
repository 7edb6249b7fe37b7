import { ConsumerGroupOwnersRepository, ConsumerLagMetrics } from '@app/consumer-runtime';
import { Database, managerRows } from '@app/db';
import { ParkedKeyMetrics } from '@app/dead-letters';
import { JobMetrics } from '@app/jobs';
import { OutboxMetrics } from '@app/outbox';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { ConsumerLagProbe } from '../lag/consumer-lag.probe';
import { AdminMetrics } from './admin.metrics';

/**
 * What the alert rules watch beyond the request plane, in the operator plane's `/metrics` (it keeps answering while
 * a relay or a consumer group is down): every scheduled job's dead man's switch, the outbox backlog, every group's
 * parked keys and lag measured from outside the group, and each group's owner, to be joined into the group's alerts.
 */
@Injectable()
export class OperationsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AdminMetrics,
    private readonly database: Database,
    private readonly lag: ConsumerLagProbe,
  ) {}

  onModuleInit(): void {
    const registry = this.metrics.registry;
    const database = this.database;
    const reader = this.lag.reader;
    const rows = async () => managerRows((await database.connection()).manager);
    new JobMetrics(registry, rows);
    new OutboxMetrics(registry, rows);
    new ParkedKeyMetrics(registry, () => database.connection());
    new ConsumerLagMetrics(registry, () => reader.every());
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
