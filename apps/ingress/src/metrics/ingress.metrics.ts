import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The ingress's Prometheus metrics, in a registry of its own (served at GET /metrics). */
@Injectable()
export class IngressMetrics {
  readonly registry = new Registry();

  private readonly latency = new Histogram({
    name: 'hookrail_http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  private readonly accepted = new Counter({
    name: 'hookrail_ingress_events_accepted_total',
    help: 'Events committed (202) by source',
    labelNames: ['source'],
    registers: [this.registry],
  });

  private readonly duplicates = new Counter({
    name: 'hookrail_ingress_events_duplicate_total',
    help: 'Deliveries recognised as duplicates (200) by source',
    labelNames: ['source'],
    registers: [this.registry],
  });

  private readonly rejections = new Counter({
    name: 'hookrail_ingress_events_rejected_total',
    help:
      'Deliveries rejected by source (a configured one, cloudevents for POST /events, unknown for a name no source ' +
      'has) and reason (the error code, or a finer one such as timestamp_outside_tolerance)',
    labelNames: ['source', 'reason'],
    registers: [this.registry],
  });

  private readonly sheds = new Counter({
    name: 'hookrail_ingress_shed_total',
    help: 'Deliveries answered 503 overloaded, by reason (cpu_saturated, queue_full, queue_delay, commit_timeout, pool_timeout)',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  private readonly unrecordedRejections = new Counter({
    name: 'hookrail_ingress_rejections_unrecorded_total',
    help: 'Rejected deliveries not kept in source_rejections: the write queue was full or the database unavailable',
    registers: [this.registry],
  });

  private readonly outboxBacklog = new Gauge({
    name: 'hookrail_ingress_outbox_backlog',
    help: 'Unpublished outbox rows as last sampled by the backpressure check (counted up to the limit)',
    registers: [this.registry],
  });

  /** Labelled children by their labels, so that a request's observation hashes no label set (their number is bounded). */
  private readonly latencyChildren = new Map<string, Histogram.Internal<string>>();
  private readonly recordedChildren = new Map<string, Counter.Internal>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'hookrail_ingress_' });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let child = this.latencyChildren.get(key);
    if (!child) {
      child = this.latency.labels({ method, route, status: String(status) });
      this.latencyChildren.set(key, child);
    }
    child.observe(seconds);
  }

  recorded(source: string, duplicate: boolean): void {
    const key = `${duplicate ? 'duplicate' : 'accepted'} ${source}`;
    let child = this.recordedChildren.get(key);
    if (!child) {
      child = (duplicate ? this.duplicates : this.accepted).labels({ source });
      this.recordedChildren.set(key, child);
    }
    child.inc();
  }

  backlog(rows: number): void {
    this.outboxBacklog.set(rows);
  }

  shed(reason: string): void {
    this.sheds.inc({ reason });
  }

  rejected(source: string, reason: string): void {
    this.rejections.inc({ source, reason });
  }

  rejectionsUnrecorded(count: number): void {
    this.unrecordedRejections.inc(count);
  }
}
