import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** How often the shed fraction is adjusted, in milliseconds. */
const WINDOW_MS = 100;
/** Deliveries in one window below which a late loop is not theirs (100 a second). */
const MIN_ARRIVALS = 10;

/**
 * Sheds a fraction of new deliveries while this process's event loop is late, the sign that it takes requests in
 * faster than its CPU can answer them: queued in sockets and in the loop, they would be answered seconds later, after
 * their senders gave up. Each window of 100 ms the fraction rises by a tenth while the loop's worst delay exceeds
 * `targetDelayMs`, and falls by a fiftieth otherwise (additive increase and decrease, after the adaptive limits of
 * Netflix's concurrency-limits and Envoy's adaptive concurrency filter), so that what is taken stays near what the
 * process can commit in time, and the shed ones get a fast 503 that costs no body read nor signature check.
 * A window in which fewer than ten deliveries arrived never raises the fraction: a loop made late by the app's own
 * start, a collection, a job or a neighbour on the CPU is not deliveries arriving faster than they are answered, and
 * the few deliveries of such a moment must not be shed for it.
 */
export class LoopShedder {
  private fraction = 0;
  private arrivals = 0;
  private readonly delays: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly targetDelayMs: number,
    private readonly random: () => number = Math.random,
  ) {
    this.delays = monitorEventLoopDelay({ resolution: 10 });
    this.delays.enable();
    this.timer = setInterval(() => this.adjust(this.delays.max / 1e6, this.arrivals), WINDOW_MS);
    this.timer.unref();
  }

  /** Whether to shed this delivery, which has just arrived. */
  shouldShed(): boolean {
    this.arrivals++;
    return this.fraction > 0 && this.random() < this.fraction;
  }

  /** The share of new deliveries shed now (0–0.95). */
  get shedFraction(): number {
    return this.fraction;
  }

  /** One window's worst loop delay, in milliseconds, and the deliveries that arrived in it. */
  adjust(worstDelayMs: number, arrivals: number): void {
    this.delays.reset();
    this.arrivals = 0;
    const late = worstDelayMs > this.targetDelayMs && arrivals >= MIN_ARRIVALS;
    this.fraction = late ? Math.min(0.95, this.fraction + 0.1) : Math.max(0, this.fraction - 0.02);
  }

  close(): void {
    clearInterval(this.timer);
    this.delays.disable();
  }
}
