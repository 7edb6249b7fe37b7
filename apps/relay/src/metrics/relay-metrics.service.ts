import { clientRows } from '@app/db';
import { JobMetrics } from '@app/jobs';
import { OutboxMetrics } from '@app/outbox';
import { Injectable } from '@nestjs/common';
import { RelayPool } from '../db/relay-pool';
import { RelayMetrics } from './relay.metrics';

/**
 * Adds the gauges that need the database to the relay's registry (served from the start by main.ts's MetricsServer):
 * the backlog gauges query the outbox at scrape time, and the job gauges job_schedules (every scheduled job, the
 * relay's and the other apps').
 */
@Injectable()
export class RelayMetricsService {
  constructor(metrics: RelayMetrics, database: RelayPool) {
    const rows = clientRows(database.pool);
    new OutboxMetrics(metrics.registry, async () => rows);
    new JobMetrics(metrics.registry, async () => rows);
  }
}
