import { EntityManager } from 'typeorm';
import { SagaRow, SagasRepository } from './sagas.repository';

/**
 * The sagas one consumer transaction moves, locked in one statement: the first `lock` locks every saga of the batch's
 * replies at once (`lockMany`, in id order), later ones are answered from it. A row is handed out once; a saga moved
 * twice in one transaction (a late reply beside the awaited one) is read again, under the lock it already holds.
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
      this.rows = new Map(
        ids.length > 1 ? (await SagasRepository.lockMany(this.manager, ids)).map((row) => [row.id, row]) : [],
      );
      if (ids.length === 1) return SagasRepository.lock(this.manager, id);
    }
    const row = this.rows.get(id);
    if (!row) return SagasRepository.lock(this.manager, id);
    this.rows.delete(id);
    return row;
  }
}
