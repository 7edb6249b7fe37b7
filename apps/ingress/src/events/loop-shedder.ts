import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** How often the shed fraction is adjusted, in milliseconds. */
const WINDOW_MS = 100;

/**
 * Sheds a fraction of new deliveries while this process's event loop is late, the sign that it takes requests in
 * faster than its CPU can answer them: queued in sockets and in the loop, they would be answered seconds later, after
 * their senders gave up. Each window of 100 ms the fraction rises by a tenth while the loop's worst delay exceeds
 * `targetDelayMs`, and falls by a fiftieth otherwise (additive increase and decrease, after the adaptive limits of
 * Netflix's concurrency-limits and Envoy's adaptive concurrency filter), so that what is taken stays near what the
 * process can commit in time, and the shed ones get a fast 503 that costs no body read nor signature check.
 */
export class LoopShedder {
  private fraction = 0;
  private readonly delays: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly targetDelayMs: number,
    private readonly random: () => number = Math.random,
  ) {
    this.delays = monitorEventLoopDelay({ resolution: 10 });
    this.delays.enable();
    this.timer = setInterval(() => this.adjust(this.delays.max / 1e6), WINDOW_MS);
    this.timer.unref();
  }

  /** Whether to shed this delivery. */
  shouldShed(): boolean {
    return this.fraction > 0 && this.random() < this.fraction;
  }

  /** The share of new deliveries shed now (0–0.95). */
  get shedFraction(): number {
    return this.fraction;
  }

  /** One window's worst loop delay, in milliseconds. */
  adjust(worstDelayMs: number): void {
    this.delays.reset();
    this.fraction =
      worstDelayMs > this.targetDelayMs ? Math.min(0.95, this.fraction + 0.1) : Math.max(0, this.fraction - 0.02);
  }

  close(): void {
    clearInterval(this.timer);
    this.delays.disable();
  }
}
