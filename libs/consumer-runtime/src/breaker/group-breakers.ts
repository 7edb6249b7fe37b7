import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { errorClassName, errorMessage } from '../classify-error';
import { ConsumerMetrics } from '../consumer-metrics';
import { Failure } from '../steps/retry.middleware';
import { BreakerChange, BreakerSettings, DependencyBreaker } from './dependency-breaker';
import { saveBreakerState } from './dependency-breakers.repository';

/**
 * What an open breaker holds back and lets go: the group's paused partitions (PartitionHolds), or the agent's task
 * claims.
 */
export interface BreakerWaiters {
  /** Lets one waiting message go as a probe; the source its failure will be reported from, undefined if none waits. */
  probe(dependency: string): string | undefined;
  /** Whether anything here waits on `dependency`, a probe let go and not tried yet included. */
  anyWaitingOn(dependency: string): boolean;
  /** Lets everything that waits on `dependency` go (the breaker closed); how many. */
  release(dependency: string): number;
}

/** The log lines of a breaker's state changes. */
export interface BreakerLogLines {
  opened: string;
  closed: string;
}

const PARTITION_LOG_LINES: BreakerLogLines = {
  opened: 'dependency unavailable: breaker open, waiting partitions paused',
  closed: 'dependency answers again: breaker closed, partitions resumed',
};

/**
 * A consumer group's circuit breakers, one per dependency its handlers reported down (no per-group code: whatever a
 * `DependencyUnavailableError` names). Runs each breaker's probe timer, pauses and resumes through its waiters (the
 * group's PartitionHolds, or the agent's worker slots for the model), and makes every state change visible: one log
 * line, `hookrail_consumer_breaker_open` and `_transitions_total`, and the `dependency_breakers` row that
 * `/admin/breakers` and `hookrail breakers` read.
 */
export interface GroupBreakersDeps {
  group: string;
  settings: BreakerSettings;
  dataSource: DataSource;
  metrics: ConsumerMetrics;
  logger: Logger;
  /** Default: about partitions paused and resumed. */
  logLines?: BreakerLogLines;
}

export class GroupBreakers {
  private readonly breakers = new Map<string, DependencyBreaker>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private holds?: BreakerWaiters;
  /** State writes in the order of the changes, so the row ends in the latest state. */
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly deps: GroupBreakersDeps) {}

  /** What the breakers pause and probe (the partitions are made after the consumer, hence not in the constructor). */
  attach(holds: BreakerWaiters): void {
    this.holds = holds;
  }

  isOpen(dependency: string): boolean {
    return this.breakers.get(dependency)?.state === 'open';
  }

  /** A message of `source` (`topic|partition`, or what a probe of the waiters names) failed on `failure.dependency`. */
  failed(failure: Pick<Failure, 'error' | 'dependency' | 'retryAfterMs'>, source: string): void {
    const breaker = this.breaker(failure.dependency!);
    const change = breaker.recordFailure(
      `${errorClassName(failure.error)}: ${errorMessage(failure.error)}`,
      source,
      failure.retryAfterMs,
    );
    if (change) this.changed(breaker, change);
    if (breaker.state === 'open') this.scheduleProbe(breaker);
  }

  /** A message that had failed on `dependency` got another answer: the dependency is back. */
  answered(dependency: string): void {
    const breaker = this.breakers.get(dependency);
    const change = breaker?.recordAnswer();
    if (breaker && change) this.changed(breaker, change);
  }

  /** Stops the probe timers (the consumer is stopping) and waits for the state writes under way. */
  async stop(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.writes;
  }

  private breaker(dependency: string): DependencyBreaker {
    let breaker = this.breakers.get(dependency);
    if (!breaker) {
      breaker = new DependencyBreaker(dependency, this.deps.settings);
      this.breakers.set(dependency, breaker);
      this.deps.metrics.breakerOpen.set({ group: this.deps.group, dependency }, 0);
    }
    return breaker;
  }

  private scheduleProbe(breaker: DependencyBreaker): void {
    clearTimeout(this.timers.get(breaker.dependency));
    const timer = setTimeout(() => this.probe(breaker), Math.max(0, breaker.nextProbeAt - Date.now()));
    this.timers.set(breaker.dependency, timer);
  }

  /** Retries one waiting message; with nothing waiting here any more, there is nothing to keep paused. */
  private probe(breaker: DependencyBreaker): void {
    this.timers.delete(breaker.dependency);
    if (breaker.state !== 'open') return;
    const source = this.holds?.probe(breaker.dependency);
    if (!source && this.holds?.anyWaitingOn(breaker.dependency)) {
      // The partitions resumed by earlier probes have not been fetched yet: their answer is still to come.
      breaker.probing('');
    } else if (!source) {
      const change = breaker.close();
      if (change) this.changed(breaker, change, 'no partition of this process waits on it any more');
      return;
    } else {
      breaker.probing(source);
    }
    this.deps.logger.debug(
      { group: this.deps.group, dependency: breaker.dependency, probe: source ?? 'none paused' },
      'probing the dependency with a waiting message',
    );
    this.scheduleProbe(breaker);
  }

  private changed(breaker: DependencyBreaker, change: BreakerChange, reason?: string): void {
    const { group, metrics, logger, dataSource, logLines = PARTITION_LOG_LINES } = this.deps;
    const { dependency } = breaker;
    const labels = { group, dependency };
    metrics.breakerOpen.set(labels, breaker.state === 'open' ? 1 : 0);
    metrics.breakerTransitions.inc({ ...labels, state: breaker.state });
    if (change === 'opened') {
      clearTimeout(this.timers.get(dependency));
      logger.warn({ group, dependency, state: 'open', lastError: breaker.lastError }, logLines.opened);
    } else {
      clearTimeout(this.timers.get(dependency));
      this.timers.delete(dependency);
      const resumed = this.holds?.release(dependency) ?? 0;
      logger.info({ group, dependency, state: 'closed', resumed, ...(reason && { reason }) }, logLines.closed);
    }
    const row = { group, dependency, state: breaker.state, since: breaker.since, lastError: breaker.lastError };
    this.writes = this.writes
      .then(() => saveBreakerState(dataSource, row))
      .catch((error: Error) =>
        logger.warn({ group, dependency, err: error.message }, 'could not record the breaker state'),
      );
  }
}
