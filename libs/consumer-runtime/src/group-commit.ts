/** An item waiting for the transaction that will commit it, and its answer. */
interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Smart batching for a transaction end: items handed over in the same turn of the event loop, or while transactions
 * are in flight, are committed together by the next one (or by several at once, when more queued than one takes);
 * nothing waits when it is idle. When a shared commit fails, each of its items is committed alone, so that only the
 * one at fault fails.
 */
export class GroupCommit<T, R> {
  private queue: Array<Waiting<T, R>> = [];
  private draining = false;

  constructor(
    private readonly deps: {
      /** How many of the items at the head of the queue one transaction takes (at least one is taken). */
      take(queued: readonly T[]): number;
      /** Commits several items together, answering each in order. */
      together(items: T[]): Promise<R[]>;
      /** Commits one item: a batch of one, or each item of a shared commit that failed. */
      alone(item: T): Promise<R>;
      /** A shared commit failed; its items are committed alone next. */
      onSplit?(error: unknown, items: number): void;
    },
  ) {}

  submit(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.draining) {
        this.draining = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  /**
   * Commits what is queued, in as many transactions at once as it takes (the callers bound how much can queue: a
   * partition hands over one run at a time), then what queued meanwhile.
   */
  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batches: Array<Array<Waiting<T, R>>> = [];
      while (this.queue.length > 0) {
        const count = Math.max(1, this.deps.take(this.queue.map((waiting) => waiting.item)));
        batches.push(this.queue.splice(0, count));
      }
      await Promise.all(batches.map((batch) => this.commit(batch)));
    }
    this.draining = false;
  }

  private async commit(batch: Array<Waiting<T, R>>): Promise<void> {
    if (batch.length > 1) {
      try {
        const results = await this.deps.together(batch.map(({ item }) => item));
        batch.forEach((waiting, index) => waiting.resolve(results[index]));
        return;
      } catch (error) {
        this.deps.onSplit?.(error, batch.length);
      }
    }
    for (const waiting of batch) {
      try {
        waiting.resolve(await this.deps.alone(waiting.item));
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}
