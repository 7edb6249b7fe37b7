import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The runtime's Prometheus metrics; one instance per process, shared by its groups (labelled by group). */
export class ConsumerMetrics {
  readonly processed: Counter<'group' | 'type'>;
  readonly duplicates: Counter<'group' | 'type'>;
  readonly retries: Counter<'group' | 'type'>;
  readonly deadLetters: Counter<'group' | 'type'>;
  readonly handlerSeconds: Histogram<'group' | 'type'>;
  /** Groups that apply records by key: records being worked on, and records waiting (a retry, a dependency). */
  readonly inFlight: Gauge<'group'>;
  readonly waiting: Gauge<'group'>;
  readonly breakerOpen: Gauge<'group' | 'dependency'>;
  readonly breakerTransitions: Counter<'group' | 'dependency' | 'state'>;

  constructor(readonly registry: Registry = new Registry()) {
    const registers = [registry];
    this.processed = new Counter({
      name: 'hookrail_consumer_processed_total',
      help: 'Events whose effect was applied and committed',
      labelNames: ['group', 'type'],
      registers,
    });
    this.duplicates = new Counter({
      name: 'hookrail_consumer_duplicates_total',
      help: 'Redeliveries skipped because the event was already applied',
      labelNames: ['group', 'type'],
      registers,
    });
    this.retries = new Counter({
      name: 'hookrail_consumer_retries_total',
      help: 'Attempts that failed and were retried',
      labelNames: ['group', 'type'],
      registers,
    });
    this.deadLetters = new Counter({
      name: 'hookrail_consumer_dead_letters_total',
      help: 'Messages produced to the group dead-letter topic',
      labelNames: ['group', 'type'],
      registers,
    });
    this.handlerSeconds = new Histogram({
      name: 'hookrail_consumer_handler_duration_seconds',
      help: 'Time spent in a handler, per attempt',
      labelNames: ['group', 'type'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers,
    });
    this.inFlight = new Gauge({
      name: 'hookrail_consumer_in_flight',
      help: 'Records being worked on at once (groups that apply records concurrently by key)',
      labelNames: ['group'],
      registers,
    });
    this.waiting = new Gauge({
      name: 'hookrail_consumer_records_waiting',
      help: 'Records waiting for a retry or a dependency, each holding only its key (groups that apply records by key)',
      labelNames: ['group'],
      registers,
    });
    this.breakerOpen = new Gauge({
      name: 'hookrail_consumer_breaker_open',
      help: "1 while the group's circuit breaker for the dependency is open (its waiting partitions paused), else 0",
      labelNames: ['group', 'dependency'],
      registers,
    });
    this.breakerTransitions = new Counter({
      name: 'hookrail_consumer_breaker_transitions_total',
      help: "Changes of a group's circuit breaker for a dependency, by the state it entered",
      labelNames: ['group', 'dependency', 'state'],
      registers,
    });
  }

  /** Counts what became of an event of the group: applied, or skipped as a duplicate. */
  count(group: string, type: string, outcome: string): void {
    if (outcome === 'applied') this.processed.inc({ group, type });
    else if (outcome === 'duplicate') this.duplicates.inc({ group, type });
  }
}
