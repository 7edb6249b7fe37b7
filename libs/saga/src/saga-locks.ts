import { EntityManager } from 'typeorm';
import { NewSaga, SagaCorrelation, SagaRowMove, SagaMoveTo, SagaRow, SagasRepository } from './sagas.repository';

/**
 * The sagas a consumer transaction's events name: by id (replies) or by type and correlation id (cancellations, and
 * the starts, whose saga may exist already).
 */
export interface SagaKeys {
  ids: string[];
  correlations: SagaCorrelation[];
}

const correlationKey = (type: string, correlationId: string) => `${type}\u0000${correlationId}`;

/**
 * The sagas one consumer transaction moves, locked in one statement, and their moves and starts, written in one
 * each: the first `lock`, `lockCorrelated` or `insert` locks every saga the batch's events name at once (`lockMany`,
 * in id order), later ones are answered from it; `move` returns the move to queue (for SagasRepository.moveMany before
 * the commit) and keeps the moved row, so that a saga moved twice in one transaction (a late reply beside the awaited
 * one, a cancellation after a reply) is moved from where the first left it. `insert` queues a new saga unless the
 * statement found one (or the transaction started one), for `writeStarts` before the commit; a saga the statement did
 * not look for is looked up on its own, and one started in this transaction is written first when a later event asks
 * for it (an order cancelled in the same batch as it was placed).
 */
export class SagaLocks {
  private rows?: Map<string, SagaRow>;
  private readonly byCorrelation = new Map<string, string>();
  /** The correlations the first statement looked for: a saga it did not find there does not exist. */
  private readonly lookedUp = new Set<string>();
  /** The correlations of the sagas this transaction starts, and those of them not written yet. */
  private readonly started = new Set<string>();
  private queued: NewSaga[] = [];

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
    const key = correlationKey(type, correlationId);
    const id = this.byCorrelation.get(key);
    if (id) return rows.get(id);
    if (this.started.has(key)) await this.writeStarts();
    else if (this.lookedUp.has(key)) return undefined;
    return this.keep(await SagasRepository.lockByCorrelation(this.manager, type, correlationId));
  }

  /** Queues the new saga; false when one exists for its type and correlation id (or this transaction started one). */
  async insert(saga: NewSaga): Promise<boolean> {
    await this.lockBatch({ ids: [], correlations: [{ type: saga.type, correlationId: saga.correlationId }] });
    const key = correlationKey(saga.type, saga.correlationId);
    if (this.byCorrelation.has(key) || this.started.has(key)) return false;
    if (
      !this.lookedUp.has(key) &&
      this.keep(await SagasRepository.lockByCorrelation(this.manager, saga.type, saga.correlationId))
    )
      return false;
    this.started.add(key);
    this.queued.push(saga);
    return true;
  }

  /**
   * Writes the queued sagas in one statement. Throws when another transaction started one of them meanwhile (two
   * processes holding a partition for a moment during a rebalance), which rolls this one back: applied again, it finds
   * that saga and starts none.
   */
  async writeStarts(): Promise<void> {
    const sagas = this.queued;
    if (sagas.length === 0) return;
    this.queued = [];
    const inserted = new Set(await SagasRepository.insertMany(this.manager, sagas));
    const taken = sagas.find((saga) => !inserted.has(saga.id));
    if (taken)
      throw new Error(
        `a ${taken.type} saga for ${taken.correlationId} was started by another transaction meanwhile; applying again`,
      );
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
    const locked = await SagasRepository.lockMany(this.manager, ids, distinct);
    this.rows = new Map();
    for (const key of distinct) this.lookedUp.add(correlationKey(key.type, key.correlationId));
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
