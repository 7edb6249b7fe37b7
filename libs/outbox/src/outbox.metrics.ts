import { QueryRows } from '@app/db';
import { Gauge, Registry } from 'prom-client';
import { OutboxBacklog, OutboxRepository } from './outbox.repository';

interface BacklogReading {
  backlog: OutboxBacklog;
  /** Creation time of the oldest pending row (unpublished, not parked), or null when there is none. */
  oldestPendingAt: Date | null;
}

/**
 * The outbox backlog in Prometheus, read from Postgres at scrape time: `hookrail_outbox_backlog_rows`,
 * `hookrail_outbox_oldest_pending_age_seconds` and `hookrail_outbox_parked_rows`. Every app exports them (the backlog is
 * shared), so the backlog alert still fires when every relay is down, which is when it matters. No series while the
 * database cannot be read.
 */
export class OutboxMetrics {
  private cached?: { at: number; value: Promise<BacklogReading | undefined> };

  constructor(
    registry: Registry,
    private readonly database: () => Promise<QueryRows>,
  ) {
    const reading = () => this.read();
    new Gauge({
      name: 'hookrail_outbox_backlog_rows',
      help: 'Pending outbox rows: unpublished, parked rows not included',
      registers: [registry],
      async collect() {
        const current = await reading();
        if (current) this.set(current.backlog.unpublished - current.backlog.parked);
      },
    });
    new Gauge({
      name: 'hookrail_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest pending outbox row (unpublished, not parked); 0 when there is none',
      registers: [registry],
      async collect() {
        const current = await reading();
        if (current)
          this.set(current.oldestPendingAt ? Math.max(0, (Date.now() - current.oldestPendingAt.getTime()) / 1000) : 0);
      },
    });
    new Gauge({
      name: 'hookrail_outbox_parked_rows',
      help: 'Parked outbox rows: the broker rejected them for good; they wait for an operator',
      registers: [registry],
      async collect() {
        const current = await reading();
        if (current) this.set(current.backlog.parked);
      },
    });
  }

  /** One reading per scrape, shared by the three gauges. */
  private read(): Promise<BacklogReading | undefined> {
    if (!this.cached || Date.now() - this.cached.at > 500) {
      this.cached = {
        at: Date.now(),
        value: this.database()
          .then(async (rows) => {
            const outbox = new OutboxRepository(rows);
            return { backlog: await outbox.backlog(), oldestPendingAt: await outbox.oldestPendingAt() };
          })
          .catch(() => undefined),
      };
    }
    return this.cached.value;
  }
}
