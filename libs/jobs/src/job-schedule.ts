/**
 * Calls `run` every `everyMs` (±10 % jitter, so that instances started together spread out), never overlapping
 * itself within one process; overlap across processes is `runExclusiveJob`'s business. `run` may answer
 * `{ nextInMs }` instead: how long to wait before the next call (a scheduled job that is not due yet says when it
 * is). `stop()` waits for a run in progress. `run` should handle its own errors; one that escapes is dropped so that
 * the schedule goes on.
 */
export class JobSchedule {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private nextAt?: number;

  constructor(
    private readonly everyMs: number,
    private readonly run: () => Promise<{ nextInMs: number } | void>,
    private readonly defaultFirstInMs = everyMs,
  ) {}

  start(firstInMs = this.defaultFirstInMs): void {
    this.schedule(firstInMs);
  }

  /** When the next call is planned (epoch ms); undefined while a call runs or once stopped. */
  get nextRunAt(): number | undefined {
    return this.nextAt;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.nextAt = undefined;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.nextAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.nextAt = undefined;
      this.running = this.run()
        .catch(() => undefined)
        .then((answer) => {
          this.running = undefined;
          this.schedule(answer ? answer.nextInMs : this.everyMs * (0.9 + Math.random() * 0.2));
        });
    }, delayMs);
    this.timer.unref();
  }
}
