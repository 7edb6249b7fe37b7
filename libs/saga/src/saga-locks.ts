import { EntityManager } from 'typeorm';
import { SagaRowMove, SagaMoveTo, SagaRow, SagasRepository } from './sagas.repository';

/**
 * The sagas one consumer transaction moves, locked in one statement, and their moves, written in one: the first
 * `lock` locks every saga of the batch's replies at once (`lockMany`, in id order), later ones are answered from it;
 * `move` returns the move to queue (for SagasRepository.moveMany before the commit) and keeps the moved row, so that a
 * saga moved twice in one transaction (a late reply beside the awaited one) is moved from where the first left it.
 */
export class SagaLocks {
  private rows?: Map<string, SagaRow>;

  constructor(
    private readonly manager: EntityManager,
    /** The saga ids the transaction's replies name, this one among them. */
    private readonly ids: () => string[],
  ) {}

  async lock(id: string): Promise<SagaRow | undefined> {
    if (!this.rows) {
      const ids = [...new Set([id, ...this.ids()])];
      const locked = ids.length > 1 ? await SagasRepository.lockMany(this.manager, ids) : [];
      this.rows = new Map(locked.map((row) => [row.id, row]));
    }
    const row = this.rows.get(id);
    if (row) return row;
    const single = await SagasRepository.lock(this.manager, id);
    if (single) this.rows.set(id, single);
    return single;
  }

  move(row: SagaRow, to: SagaMoveTo): SagaRowMove {
    const move = { id: row.id, fromVersion: row.version, to };
    const now = new Date();
    this.rows!.set(row.id, {
      ...row,
      state: to.state,
      step: to.step,
      stepName: to.stepName,
      attempts: to.attempts,
      deadline: to.timeoutMs === null ? null : new Date(now.getTime() + to.timeoutMs),
      version: row.version + 1,
      failure: to.failure ?? row.failure,
      lastError: to.lastError ?? row.lastError,
      results: { ...row.results, ...(to.results as SagaRow['results'] | null) },
      updatedAt: now,
      endedAt: to.ended ? now : row.endedAt,
    });
    return move;
  }
}
