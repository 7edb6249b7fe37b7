import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The relay's Prometheus metrics, on a registry of their own. */
export class RelayMetrics {
  readonly registry = new Registry();

  readonly published = new Counter({
    name: 'hookrail_relay_published_total',
    help: 'Outbox rows the broker acknowledged',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });

  readonly failures = new Counter({
    name: 'hookrail_relay_failures_total',
    help: 'Failed publish attempts: transient (rolled back, retried) or rejected (refused for good: the row is parked)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly batchSize = new Histogram({
    name: 'hookrail_relay_batch_size',
    help: 'Rows claimed per transaction',
    buckets: [1, 5, 10, 50, 100, 250, 500, 1000, 2500, 5000],
    registers: [this.registry],
  });

  readonly publishLatency = new Histogram({
    name: 'hookrail_relay_publish_latency_seconds',
    help: 'From outbox insert to broker acknowledgement, per row',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly sendDuration = new Histogram({
    name: 'hookrail_relay_send_duration_seconds',
    help: 'Duration of one produce request (sendBatch) until acks from all in-sync replicas',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [this.registry],
  });

  readonly lanesOwned = new Gauge({
    name: 'hookrail_relay_lanes_owned',
    help: 'Outbox lanes each drain loop of this relay owns',
    labelNames: ['loop'] as const,
    registers: [this.registry],
  });

  readonly members = new Gauge({
    name: 'hookrail_relay_members',
    help: 'Drain loops of all relays (this relay’s included), each a member of the lane rebalancing',
    registers: [this.registry],
  });

  readonly dependencyUp = new Gauge({
    name: 'hookrail_dependency_up',
    help: 'Whether the app reached the dependency at its last check (1) or not (0): while it waits at start, then every 15 s',
    labelNames: ['app', 'dependency'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
