import { EntityManager } from 'typeorm';
import { SagaCorrelation, SagaRowMove, SagaMoveTo, SagaRow, SagasRepository } from './sagas.repository';

/** The sagas a consumer transaction's events name: by id (replies) or by type and correlation id (cancellations). */
export interface SagaKeys {
  ids: string[];
  correlations: SagaCorrelation[];
}

const correlationKey = (type: string, correlationId: string) => `${type}\u0000${correlationId}`;

/**
 * The sagas one consumer transaction moves, locked in one statement, and their moves, written in one: the first
 * `lock` or `lockCorrelated` locks every saga the batch's events name at once (`lockMany`, in id order), later ones
 * are answered from it; `move` returns the move to queue (for SagasRepository.moveMany before the commit) and keeps
 * the moved row, so that a saga moved twice in one transaction (a late reply beside the awaited one, a cancellation
 * after a reply) is moved from where the first left it. A saga the first statement did not find (one started earlier
 * in the same transaction) is locked on its own when asked for.
 */
export class SagaLocks {
  private rows?: Map<string, SagaRow>;
  private readonly byCorrelation = new Map<string, string>();

  constructor(
    private readonly manager: EntityManager,
    /** The sagas the transaction's events name, this one among them. */
    private readonly keys: () => SagaKeys,
  ) {}

  async lock(id: string): Promise<SagaRow | undefined> {
    const rows = await this.lockBatch({ ids: [id], correlations: [] });
    return rows.get(id) ?? this.keep(await SagasRepository.lock(this.manager, id));
  }

  async lockCorrelated(type: string, correlationId: string): Promise<SagaRow | undefined> {
    const rows = await this.lockBatch({ ids: [], correlations: [{ type, correlationId }] });
    const id = this.byCorrelation.get(correlationKey(type, correlationId));
    if (id) return rows.get(id);
    return this.keep(await SagasRepository.lockByCorrelation(this.manager, type, correlationId));
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
      refusals: to.refusals,
      failingSince: to.failingSince,
      backingOff: to.backingOff,
      cancellation: to.cancellation ?? row.cancellation,
      updatedAt: now,
      endedAt: to.ended ? now : row.endedAt,
    });
    return move;
  }

  private async lockBatch(wanted: SagaKeys): Promise<Map<string, SagaRow>> {
    if (this.rows) return this.rows;
    const named = this.keys();
    const ids = [...new Set([...wanted.ids, ...named.ids])];
    const correlations = [...wanted.correlations, ...named.correlations];
    const distinct = [
      ...new Map(correlations.map((key) => [correlationKey(key.type, key.correlationId), key])).values(),
    ];
    const locked = ids.length + distinct.length > 1 ? await SagasRepository.lockMany(this.manager, ids, distinct) : [];
    this.rows = new Map();
    for (const row of locked) this.keep(row);
    return this.rows;
  }

  private keep(row: SagaRow | undefined): SagaRow | undefined {
    if (!row) return undefined;
    this.rows!.set(row.id, row);
    this.byCorrelation.set(correlationKey(row.type, row.correlationId), row.id);
    return row;
  }
}
