/** Thrown into a task's work (the agent's model call) when the task was claimed by someone else while it ran. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/**
 * Renews a task's lease every `everyMs` while its work runs, for work that can outlast a lease (the agent's model
 * calls). When a renewal finds the task no longer ours (the fencing token moved on), `signal` aborts so the work stops
 * early; a renewal that fails for another reason (the database briefly away) is reported and tried again at the next
 * tick.
 */
export class LeaseKeeper {
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly renew: () => Promise<boolean>,
    private readonly everyMs: number,
    private readonly onRenewError: (error: unknown) => void,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get lost(): boolean {
    return this.controller.signal.aborted;
  }

  start(): this {
    this.schedule();
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.everyMs);
  }

  private async tick(): Promise<void> {
    try {
      if (!(await this.renew())) {
        this.controller.abort(new LeaseLostError('the task was claimed by another worker'));
        return;
      }
    } catch (error) {
      this.onRenewError(error);
    }
    this.schedule();
  }
}
