/**
 * Calls `run` every `everyMs` (±10 % jitter, so that instances started together spread out), never overlapping
 * itself within one process; overlap across processes is `runExclusiveJob`'s business. `stop()` waits for a run
 * in progress. `run` should handle its own errors; one that escapes is dropped so that the schedule goes on.
 */
export class JobSchedule {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly everyMs: number,
    private readonly run: () => Promise<void>,
  ) {}

  start(firstInMs = this.everyMs): void {
    this.schedule(firstInMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.run()
        .catch(() => undefined)
        .finally(() => {
          this.running = undefined;
          this.schedule(this.everyMs * (0.9 + Math.random() * 0.2));
        });
    }, delayMs);
    this.timer.unref();
  }
}
