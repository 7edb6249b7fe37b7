import { Counter, Histogram, Registry } from 'prom-client';

/** The notifier's metrics, in the consumers app's registry. */
export class NotifierMetrics {
  readonly providerCalls: Counter<'outcome'>;
  readonly providerSeconds: Histogram;

  constructor(registry: Registry) {
    const registers = [registry];
    this.providerCalls = new Counter({
      name: 'hookrail_notifier_provider_calls_total',
      help: 'Email provider calls by outcome (sent, unavailable, rejected); a call repeated after a crash counts again',
      labelNames: ['outcome'],
      registers,
    });
    this.providerSeconds = new Histogram({
      name: 'hookrail_notifier_provider_duration_seconds',
      help: 'Email provider call latency',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
  }
}
