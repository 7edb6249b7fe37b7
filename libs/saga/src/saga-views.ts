import { DataSource, EntityManager } from 'typeorm';
import { SagaState } from './saga-definition';
import { SagasRepository } from './sagas.repository';

/** A saga as operators see it in lists. */
export interface SagaSummary {
  id: string;
  type: string;
  correlationId: string;
  state: SagaState;
  step: string;
  attempts: number;
  deadline: Date | null;
  failure: string | null;
  lastError: string | null;
  /** Refusals of the current compensation (its policy's attempt budget spent). */
  refusals: number;
  /** Who or what cancelled it; on a running saga, a cancel an operator asked for that is not carried out yet. */
  cancellation: string | null;
  startEventId: string;
  createdAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
}

/** One transition of a saga. */
export interface SagaHistoryEntry {
  seq: number;
  step: string;
  phase: string;
  event: string;
  state: SagaState;
  /** The reply that caused it (type and event id), if a reply did. */
  causeType: string | null;
  causeId: string | null;
  /** The command or outcome it sent (type and event id). */
  sentType: string | null;
  sentId: string | null;
  detail: string | null;
  at: Date;
}

export interface SagaDetail extends SagaSummary {
  data: unknown;
  results: unknown;
  history: SagaHistoryEntry[];
}

export interface SagaFilter {
  state?: SagaState;
  type?: string;
  correlationId?: string;
}

type Db = DataSource | EntityManager;

const SUMMARY = `id, type, correlation_id, state, step_name, attempts, deadline, failure, last_error, refusals,
  cancellation, start_event_id, created_at, updated_at, ended_at`;

function where(filter: SagaFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (column: string, value: unknown) => {
    params.push(value);
    clauses.push(`${column} = $${params.length}`);
  };
  if (filter.state) add('state', filter.state);
  if (filter.type) add('type', filter.type);
  if (filter.correlationId) add('correlation_id', filter.correlationId);
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

function toSummary(row: Record<string, unknown>): SagaSummary {
  return {
    id: row.id as string,
    type: row.type as string,
    correlationId: row.correlation_id as string,
    state: row.state as SagaState,
    step: row.step_name as string,
    attempts: Number(row.attempts),
    deadline: (row.deadline as Date | null) ?? null,
    failure: (row.failure as string | null) ?? null,
    lastError: (row.last_error as string | null) ?? null,
    refusals: Number(row.refusals ?? 0),
    cancellation: (row.cancellation as string | null) ?? null,
    startEventId: row.start_event_id as string,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    endedAt: (row.ended_at as Date | null) ?? null,
  };
}

/** The read side of `sagas` and `saga_steps` for operators (`/admin/sagas`, `hookrail sagas`). */
export const SagaViews = {
  /** Failed sagas first (they wait for a human), then compensating ones, then the rest; newest change first. */
  async list(db: Db, filter: SagaFilter, limit: number, offset = 0): Promise<SagaSummary[]> {
    const { sql, params } = where(filter);
    const rows: Array<Record<string, unknown>> = await db.query(
      `SELECT ${SUMMARY} FROM sagas ${sql}
        ORDER BY CASE state WHEN 'failed' THEN 0 WHEN 'compensating' THEN 1 ELSE 2 END, updated_at DESC, id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return rows.map(toSummary);
  },

  async count(db: Db, filter: SagaFilter): Promise<number> {
    const { sql, params } = where(filter);
    const [{ count }]: Array<{ count: number }> = await db.query(
      `SELECT count(*)::int AS count FROM sagas ${sql}`,
      params,
    );
    return count;
  },

  /** How many sagas are in each state (all types). */
  async countByState(db: Db): Promise<Array<{ state: SagaState; count: number }>> {
    const rows = await SagasRepository.countByTypeAndState(db);
    const byState = new Map<SagaState, number>();
    for (const row of rows) byState.set(row.state, (byState.get(row.state) ?? 0) + row.count);
    return [...byState].map(([state, count]) => ({ state, count }));
  },

  async find(db: Db, id: string): Promise<SagaDetail | undefined> {
    const rows: Array<Record<string, unknown>> = await db.query(
      `SELECT ${SUMMARY}, data, results FROM sagas WHERE id = $1`,
      [id],
    );
    if (!rows[0]) return undefined;
    return { ...toSummary(rows[0]), data: rows[0].data, results: rows[0].results, history: await this.history(db, id) };
  },

  /** The sagas an event started (an order placed starts its fulfilment), oldest first, each with its history. */
  async startedBy(db: Db, eventId: string): Promise<SagaDetail[]> {
    const rows: Array<Record<string, unknown>> = await db.query(
      `SELECT ${SUMMARY}, data, results FROM sagas WHERE start_event_id = $1 ORDER BY created_at, id`,
      [eventId],
    );
    const sagas: SagaDetail[] = [];
    for (const row of rows)
      sagas.push({
        ...toSummary(row),
        data: row.data,
        results: row.results,
        history: await this.history(db, row.id as string),
      });
    return sagas;
  },

  async history(db: Db, sagaId: string): Promise<SagaHistoryEntry[]> {
    const rows: Array<Record<string, unknown>> = await db.query(
      `SELECT seq, step, phase, event, state, cause_type, cause_id, sent_type, sent_id, detail, at
         FROM saga_steps WHERE saga_id = $1 ORDER BY seq`,
      [sagaId],
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      step: row.step as string,
      phase: row.phase as string,
      event: row.event as string,
      state: row.state as SagaState,
      causeType: (row.cause_type as string | null) ?? null,
      causeId: (row.cause_id as string | null) ?? null,
      sentType: (row.sent_type as string | null) ?? null,
      sentId: (row.sent_id as string | null) ?? null,
      detail: (row.detail as string | null) ?? null,
      at: row.at as Date,
    }));
  },
};
