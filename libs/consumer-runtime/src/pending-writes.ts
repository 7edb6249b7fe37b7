import { EntityManager } from 'typeorm';
import { BatchWriter } from './handler';

/** What a committed transaction's handlers wrote, for hooks after the commit (which outbox lanes to wake). */
export interface WrittenRows {
  /** The rows this writer wrote, in the order they were queued (none if it wrote none). */
  rowsOf<T>(writer: BatchWriter<T>): readonly T[];
}

/** The rows handlers queued in one transaction, per writer, in the order they were queued. */
export class PendingWrites implements WrittenRows {
  private readonly rows = new Map<BatchWriter<unknown>, unknown[]>();

  add<T>(writer: BatchWriter<T>, row: T): void {
    const queued = this.rows.get(writer as BatchWriter<unknown>);
    if (queued) queued.push(row);
    else this.rows.set(writer as BatchWriter<unknown>, [row]);
  }

  /** The rows another set queued (a handler's that ran before this transaction), after those queued here. */
  addAll(other: PendingWrites): void {
    for (const [writer, rows] of other.rows) for (const row of rows) this.add(writer, row);
  }

  rowsOf<T>(writer: BatchWriter<T>): readonly T[] {
    return (this.rows.get(writer as BatchWriter<unknown>) ?? []) as T[];
  }

  /**
   * Runs each writer once with its rows; called inside the transaction, right before it commits (once: the rows stay,
   * for `rowsOf` after the commit).
   */
  async flush(manager: EntityManager): Promise<void> {
    for (const [writer, rows] of this.rows) await writer(manager, rows);
  }
}
