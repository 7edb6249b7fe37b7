import { EntityManager } from 'typeorm';
import { BatchWriter } from './handler';

/** The rows handlers queued in one transaction, per writer, in the order they were queued. */
export class PendingWrites {
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

  /** Runs each writer once with its rows; called inside the transaction, right before it commits. */
  async flush(manager: EntityManager): Promise<void> {
    for (const [writer, rows] of this.rows) await writer(manager, rows);
    this.rows.clear();
  }
}
