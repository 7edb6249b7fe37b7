import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The operator plane's Prometheus metrics, in a registry of its own (served at its GET /metrics). */
@Injectable()
export class AdminMetrics {
  readonly registry = new Registry();

  private readonly latency = new Histogram({
    name: 'hookrail_admin_request_duration_seconds',
    help: 'Operator API and console request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'hookrail_admin_' });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.latency.observe({ method, route, status: String(status) }, seconds);
  }
}
