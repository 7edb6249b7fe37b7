import { BreakerState } from '../consumer-states';

export interface BreakerSettings {
  /** Consecutive failures on the dependency (with no answer in between) that open the breaker. */
  failureThreshold: number;
  /** The first probe comes this long after opening; each failed probe doubles the interval… */
  probeIntervalMs: number;
  /** …up to this. */
  maxProbeIntervalMs: number;
}

export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = {
  failureThreshold: 3,
  probeIntervalMs: 5_000,
  maxProbeIntervalMs: 60_000,
};

export type BreakerChange = 'opened' | 'closed';

/**
 * One group's circuit breaker for one dependency, as a state machine without timers or I/O (GroupBreakers runs it).
 * Closed: failures are counted; `failureThreshold` of them without an answer in between open it. Open: the group's
 * partitions that wait on the dependency stay paused, and one waiting message is retried as a probe at a growing
 * interval (±20 % jitter, never before the dependency's `Retry-After`); the first answer closes it.
 */
export class DependencyBreaker {
  state: BreakerState = 'closed';
  /** Open: when the outage began. Closed: when it ended (or when the breaker was made). */
  since: Date;
  lastError: string | null = null;
  /** Open: when the next probe is due. */
  nextProbeAt = 0;
  private failures = 0;
  private probeDelayMs: number;
  private probeSource?: string;

  constructor(
    readonly dependency: string,
    private readonly settings: BreakerSettings,
    now = Date.now(),
    private readonly random: () => number = Math.random,
  ) {
    this.since = new Date(now);
    this.probeDelayMs = settings.probeIntervalMs;
  }

  /**
   * A message from `source` (topic and partition) failed on the dependency. 'opened' when this failure opened the
   * breaker. While open, only the probe's own failure counts: it pushes the next probe further out.
   */
  recordFailure(
    error: string,
    source: string,
    retryAfterMs: number | undefined,
    now = Date.now(),
  ): BreakerChange | undefined {
    this.lastError = error;
    if (this.state === 'closed') {
      if (++this.failures < this.settings.failureThreshold) return undefined;
      this.state = 'open';
      this.since = new Date(now);
      this.probeDelayMs = this.settings.probeIntervalMs;
      this.nextProbeAt = now + this.jittered(retryAfterMs);
      return 'opened';
    }
    if (source === this.probeSource) {
      this.probeSource = undefined;
      this.probeDelayMs = Math.min(this.probeDelayMs * 2, this.settings.maxProbeIntervalMs);
      this.nextProbeAt = now + this.jittered(retryAfterMs);
    }
    return undefined;
  }

  /** The dependency answered a message that had failed on it. 'closed' when that closed the breaker. */
  recordAnswer(now = Date.now()): BreakerChange | undefined {
    this.failures = 0;
    return this.close(now);
  }

  /** A probe goes out from `source`; if it never reports (its partition moved away), the next one is due anyway. */
  probing(source: string, now = Date.now()): void {
    this.probeSource = source;
    this.nextProbeAt = now + this.jittered();
  }

  /** Closes the breaker without an answer: nothing in this process waits on the dependency any more. */
  close(now = Date.now()): BreakerChange | undefined {
    if (this.state === 'closed') return undefined;
    this.state = 'closed';
    this.since = new Date(now);
    this.failures = 0;
    this.probeSource = undefined;
    return 'closed';
  }

  private jittered(retryAfterMs = 0): number {
    return Math.max(Math.round(this.probeDelayMs * (0.8 + 0.4 * this.random())), retryAfterMs);
  }
}
