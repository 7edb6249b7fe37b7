import { RecordedState, countDisabledEndpoints, countQueuedDeliveries } from '@app/webhooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/** The outbound webhooks' metrics, in the consumers app's registry; `endpoint` is the endpoint's id. */
export class WebhookMetrics {
  /** Finished attempts by what became of the delivery: delivered, retrying, failed, waiting, fenced. */
  readonly deliveries: Counter<'endpoint' | 'outcome'>;
  readonly seconds: Histogram<'endpoint'>;
  readonly queueDepth: Gauge<'endpoint'>;
  readonly disabledEndpoints: Gauge;
  readonly leaseExpiries: Counter;

  constructor(registry: Registry, dataSource: DataSource) {
    const registers = [registry];
    this.deliveries = new Counter({
      name: 'hookrail_webhook_deliveries_total',
      help: 'Finished webhook attempts per endpoint by outcome (delivered, retrying, failed, waiting, fenced)',
      labelNames: ['endpoint', 'outcome'],
      registers,
    });
    this.seconds = new Histogram({
      name: 'hookrail_webhook_delivery_seconds',
      help: 'Latency of webhook attempts that reached the endpoint (until the answer was read, or the timeout)',
      labelNames: ['endpoint'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.queueDepth = new Gauge({
      name: 'hookrail_webhook_queue_depth',
      help: 'Webhook deliveries pending or in flight per endpoint (read from webhook_deliveries at scrape time)',
      labelNames: ['endpoint'],
      registers,
      async collect() {
        const queued = await countQueuedDeliveries(dataSource);
        this.reset();
        for (const { endpointId, count } of queued) this.set({ endpoint: endpointId }, count);
      },
    });
    this.disabledEndpoints = new Gauge({
      name: 'hookrail_webhook_endpoints_disabled',
      help: 'Webhook endpoints disabled (by an operator, a 410 Gone, or failing too long), read at scrape time',
      registers,
      async collect() {
        this.set(await countDisabledEndpoints(dataSource));
      },
    });
    this.leaseExpiries = new Counter({
      name: 'hookrail_webhook_lease_expiries_total',
      help: 'Claims that took over a webhook delivery from another worker (its process was gone, or its lease ran out)',
      registers,
    });
  }

  recorded(endpoint: string, state: RecordedState): void {
    this.deliveries.inc({ endpoint, outcome: state === 'pending' ? 'retrying' : state });
  }
}
