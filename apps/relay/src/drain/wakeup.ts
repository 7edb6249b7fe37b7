/**
 * A latch between the outbox notifications and the drain loop: `wait` returns at the first `signal` or after the
 * timeout. A signal that arrives while nobody waits is kept for the next wait, so a notification during a batch
 * is never lost.
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
      const release = () => done();
      this.release = release;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
    this.release = undefined;
    this.pending = false;
  }
}
