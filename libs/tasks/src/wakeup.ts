/**
 * A latch between a worker loop and whatever makes work for it (rows committed, a slot freed, a NOTIFY from another
 * process): `wait` returns at the first `signal` or after the timeout. A signal while nobody waits is kept for the
 * next wait, so none is lost. The relay's drain loops and the task executor wait on one each.
 */
export class Wakeup {
  private pending = false;
  private release?: () => void;

  signal(): void {
    this.pending = true;
    this.release?.();
  }

  async wait(timeoutMs: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      this.release = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
    this.release = undefined;
    this.pending = false;
  }
}
