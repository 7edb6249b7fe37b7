import { preparedQuery } from '@app/db';
import { DataSource, EntityManager } from 'typeorm';
import { ENDED_SAGA_STATES, SagaPhase, SagaState } from './saga-definition';

/** A `sagas` row as the coordinator reads it. */
export interface SagaRow {
  id: string;
  type: string;
  correlationId: string;
  startEventId: string;
  state: SagaState;
  step: number;
  stepName: string;
  attempts: number;
  deadline: Date | null;
  version: number;
  data: unknown;
  results: Record<string, Record<string, unknown>>;
  failure: string | null;
  lastError: string | null;
  /** Refusals of the current compensation (its policy's attempt budget). */
  refusals: number;
  /** When the current compensation first failed (its policy's ceiling counts from here). */
  failingSince: Date | null;
  /** The deadline is when a refused compensation is sent again. */
  backingOff: boolean;
  /** Who or what cancelled it (while running: an operator's request, not carried out yet). */
  cancellation: string | null;
  createdAt: Date;
  updatedAt: Date;
  endedAt: Date | null;
}

/** A `saga_steps` row to write (`type` only labels metrics). */
export interface SagaStepRow {
  sagaId: string;
  type: string;
  seq: number;
  step: string;
  phase: SagaPhase | 'operator';
  event: string;
  state: SagaState;
  causeType: string | null;
  causeId: string | null;
  sentType: string | null;
  sentId: string | null;
  detail: string | null;
}

const COLUMNS = `id, type, correlation_id, start_event_id, state, step, step_name, attempts, deadline, version, data,
  results, failure, last_error, refusals, failing_since, backing_off, cancellation, created_at, updated_at, ended_at`;

type RawSaga = Record<string, unknown>;

export function toSagaRow(raw: RawSaga): SagaRow {
  return {
    id: raw.id as string,
    type: raw.type as string,
    correlationId: raw.correlation_id as string,
    startEventId: raw.start_event_id as string,
    state: raw.state as SagaState,
    step: Number(raw.step),
    stepName: raw.step_name as string,
    attempts: Number(raw.attempts),
    deadline: (raw.deadline as Date | null) ?? null,
    version: Number(raw.version),
    data: raw.data,
    results: (raw.results ?? {}) as SagaRow['results'],
    failure: (raw.failure as string | null) ?? null,
    lastError: (raw.last_error as string | null) ?? null,
    refusals: Number(raw.refusals ?? 0),
    failingSince: (raw.failing_since as Date | null) ?? null,
    backingOff: raw.backing_off === true,
    cancellation: (raw.cancellation as string | null) ?? null,
    createdAt: raw.created_at as Date,
    updatedAt: raw.updated_at as Date,
    endedAt: (raw.ended_at as Date | null) ?? null,
  };
}

/** What a move sets (`SagasRepository.move`). */
export interface SagaMoveTo {
  state: SagaState;
  step: number;
  stepName: string;
  attempts: number;
  /** The next deadline from now (a reply's timeout, or a backoff); null clears it. */
  timeoutMs: number | null;
  failure: string | null;
  lastError: string | null;
  results: Record<string, unknown> | null;
  ended: boolean;
  /** The current compensation's refusals and first failure; 0 and null for a new command. */
  refusals: number;
  failingSince: Date | null;
  backingOff: boolean;
  /** Set once (a later null keeps it). */
  cancellation: string | null;
}

/** A saga named by its type and correlation id (an outside event knows no saga id). */
export interface SagaCorrelation {
  type: string;
  correlationId: string;
}

/** One move of a locked saga: from the version it was read at. */
export interface SagaRowMove {
  id: string;
  fromVersion: number;
  to: SagaMoveTo;
}

export interface NewSaga {
  id: string;
  type: string;
  correlationId: string;
  startEventId: string;
  stepName: string;
  data: unknown;
  /** The first command's timeout. */
  timeoutMs: number;
}

/** The coordinator's statements on `sagas` and `saga_steps`, one named function each. */
export const SagasRepository = {
  /**
   * The saga at version 1, running its first step; nothing when one exists already for the type and correlation id
   * (the unique constraint decides, so a replayed start event never starts a second saga). True when inserted.
   */
  async insert(manager: EntityManager, saga: NewSaga): Promise<boolean> {
    return (await SagasRepository.insertMany(manager, [saga])).length === 1;
  },

  /** Many new sagas in one statement, each as `insert` writes one; the ids of those inserted. */
  async insertMany(manager: EntityManager, sagas: NewSaga[]): Promise<string[]> {
    if (sagas.length === 0) return [];
    const column = <K extends keyof NewSaga>(key: K) => sagas.map((saga) => saga[key]);
    const rows = await preparedQuery<{ id: string }>(
      manager,
      `INSERT INTO sagas (id, type, correlation_id, start_event_id, state, step, step_name, attempts, deadline, version,
                          data, created_at, updated_at)
       SELECT s.id, s.type, s.correlation_id, s.start_event_id, 'running', 0, s.step_name, 1,
              clock_timestamp() + make_interval(secs => s.timeout_ms / 1000), 1, s.data, clock_timestamp(),
              clock_timestamp()
         FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[], $6::float8[], $7::jsonb[])
              AS s(id, type, correlation_id, start_event_id, step_name, timeout_ms, data)
       ON CONFLICT (type, correlation_id) DO NOTHING
       RETURNING id`,
      [
        column('id'),
        column('type'),
        column('correlationId'),
        column('startEventId'),
        column('stepName'),
        column('timeoutMs'),
        sagas.map((saga) => JSON.stringify(saga.data)),
      ],
    );
    return rows.map((row) => row.id);
  },

  /** The saga, locked until the transaction ends: every move of a saga happens under this lock. */
  async lock(manager: EntityManager, id: string): Promise<SagaRow | undefined> {
    const rows = await preparedQuery<RawSaga>(manager, `SELECT ${COLUMNS} FROM sagas WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] && toSagaRow(rows[0]);
  },

  /** The saga of this type and correlation id, locked until the transaction ends. */
  async lockByCorrelation(manager: EntityManager, type: string, correlationId: string): Promise<SagaRow | undefined> {
    const rows = await preparedQuery<RawSaga>(
      manager,
      `SELECT ${COLUMNS} FROM sagas WHERE type = $1 AND correlation_id = $2 FOR UPDATE`,
      [type, correlationId],
    );
    return rows[0] && toSagaRow(rows[0]);
  },

  /**
   * These sagas, by id or by type and correlation id, locked until the transaction ends, in one statement: in id
   * order, so that two transactions locking overlapping sets cannot deadlock.
   */
  async lockMany(manager: EntityManager, ids: string[], correlations: SagaCorrelation[] = []): Promise<SagaRow[]> {
    const { sql, parameters } = lockManyStatement(ids, correlations);
    return (await preparedQuery<RawSaga>(manager, sql, parameters)).map(toSagaRow);
  },

  /**
   * Moves the saga from `fromVersion` to the next version: the version guard makes a move computed from a stale read
   * write nothing. `timeoutMs` null clears the deadline. False when the version did not match.
   */
  async move(manager: EntityManager, id: string, fromVersion: number, to: SagaMoveTo): Promise<boolean> {
    const rows = await preparedQuery(
      manager,
      `UPDATE sagas
          SET state = $3, step = $4, step_name = $5, attempts = $6,
              deadline = CASE WHEN $7::float8 IS NULL THEN NULL
                              ELSE clock_timestamp() + make_interval(secs => $7::float8 / 1000) END,
              version = version + 1,
              failure = COALESCE($8, failure),
              last_error = COALESCE($9, last_error),
              results = CASE WHEN $10::jsonb IS NULL THEN results ELSE results || $10::jsonb END,
              updated_at = clock_timestamp(),
              ended_at = CASE WHEN $11 THEN clock_timestamp() ELSE ended_at END,
              refusals = $12, failing_since = $13, backing_off = $14,
              cancellation = COALESCE($15, cancellation)
        WHERE id = $1 AND version = $2
        RETURNING version`,
      [
        id,
        fromVersion,
        to.state,
        to.step,
        to.stepName,
        to.attempts,
        to.timeoutMs,
        to.failure,
        to.lastError,
        to.results === null ? null : JSON.stringify(to.results),
        to.ended,
        to.refusals,
        to.failingSince,
        to.backingOff,
        to.cancellation,
      ],
    );
    return rows.length === 1;
  },

  /**
   * Many moves, queued by a consumer transaction: one statement per round, each round at most one move per saga (a
   * saga moved twice in one transaction goes in two rounds, in order). Throws when a saga was not at the version its
   * move was computed from, which rolls the transaction back (the rows are locked, so only a bug gets there).
   */
  async moveMany(manager: EntityManager, moves: SagaRowMove[]): Promise<void> {
    for (let rest = moves; rest.length > 0;) {
      const seen = new Set<string>();
      const round = rest.filter((move) => !seen.has(move.id) && seen.add(move.id));
      rest = rest.filter((move) => !round.includes(move));
      const column = <K extends keyof SagaMoveTo>(key: K) => round.map((move) => move.to[key]);
      const rows = await preparedQuery<{ id: string }>(
        manager,
        `UPDATE sagas s
            SET state = m.state, step = m.step, step_name = m.step_name, attempts = m.attempts,
                deadline = CASE WHEN m.timeout_ms IS NULL THEN NULL
                                ELSE clock_timestamp() + make_interval(secs => m.timeout_ms / 1000) END,
                version = s.version + 1,
                failure = COALESCE(m.failure, s.failure),
                last_error = COALESCE(m.last_error, s.last_error),
                results = CASE WHEN m.results IS NULL THEN s.results ELSE s.results || m.results END,
                updated_at = clock_timestamp(),
                ended_at = CASE WHEN m.ended THEN clock_timestamp() ELSE s.ended_at END,
                refusals = m.refusals, failing_since = m.failing_since, backing_off = m.backing_off,
                cancellation = COALESCE(m.cancellation, s.cancellation)
           FROM unnest($1::uuid[], $2::int[], $3::varchar[], $4::int[], $5::varchar[], $6::int[], $7::float8[],
                       $8::text[], $9::text[], $10::jsonb[], $11::bool[], $12::int[], $13::timestamptz[], $14::bool[],
                       $15::text[])
                AS m(id, from_version, state, step, step_name, attempts, timeout_ms, failure, last_error, results, ended,
                     refusals, failing_since, backing_off, cancellation)
          WHERE s.id = m.id AND s.version = m.from_version
          RETURNING s.id`,
        [
          round.map((move) => move.id),
          round.map((move) => move.fromVersion),
          column('state'),
          column('step'),
          column('stepName'),
          column('attempts'),
          column('timeoutMs'),
          column('failure'),
          column('lastError'),
          round.map((move) => (move.to.results === null ? null : JSON.stringify(move.to.results))),
          column('ended'),
          column('refusals'),
          column('failingSince'),
          column('backingOff'),
          column('cancellation'),
        ],
      );
      if (rows.length < round.length) {
        const moved = new Set(rows.map((row) => row.id));
        const missed = round.find((move) => !moved.has(move.id))!;
        throw new Error(`saga ${missed.id} is no longer at version ${missed.fromVersion}`);
      }
    }
  },

  /** History rows, one statement for any number (a consumer batch queues them; see `SagaTransaction.history`). */
  async insertSteps(manager: EntityManager, steps: SagaStepRow[]): Promise<void> {
    if (steps.length === 0) return;
    const column = <K extends keyof SagaStepRow>(key: K) => steps.map((step) => step[key]);
    await preparedQuery(
      manager,
      `INSERT INTO saga_steps (saga_id, seq, step, phase, event, state, cause_type, cause_id, sent_type, sent_id, detail)
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::varchar[], $4::varchar[], $5::varchar[], $6::varchar[],
                            $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::text[])`,
      [
        column('sagaId'),
        column('seq'),
        column('step'),
        column('phase'),
        column('event'),
        column('state'),
        column('causeType'),
        column('causeId'),
        column('sentType'),
        column('sentId'),
        column('detail'),
      ],
    );
  },

  /**
   * Up to `limit` sagas whose deadline passed, locked; those another transaction holds (a reply being applied right
   * now) are skipped and looked at again next time.
   */
  async lockExpired(manager: EntityManager, limit: number): Promise<SagaRow[]> {
    const rows = await manager.query(
      `SELECT ${COLUMNS} FROM sagas
        WHERE deadline <= clock_timestamp()
        ORDER BY deadline
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return (rows as RawSaga[]).map(toSagaRow);
  },

  /**
   * An operator's retry of a `failed` saga: its deadline becomes now, so the coordinator's deadline job sends the
   * compensation again (the state moves in that job's transaction, with the command). Returns the new version, or
   * undefined when the saga is not `failed` or a retry is already pending.
   */
  async scheduleRetry(manager: EntityManager, id: string): Promise<{ version: number; stepName: string } | undefined> {
    const rows: Array<{ version: number; step_name: string }> = await manager.query(
      `WITH scheduled AS (
         UPDATE sagas SET deadline = clock_timestamp(), version = version + 1, updated_at = clock_timestamp()
          WHERE id = $1 AND state = 'failed' AND deadline IS NULL
          RETURNING version, step_name
       )
       SELECT * FROM scheduled`,
      [id],
    );
    return rows[0] && { version: rows[0].version, stepName: rows[0].step_name };
  },

  /**
   * An operator's cancel of a `running` saga: `cancellation` says who asked and why, and the deadline becomes now, so
   * the coordinator's deadline job (or a reply that comes first) compensates it in the transaction that sends the
   * compensation. Returns the new version, or undefined when the saga is not running or a cancel is already pending.
   */
  async requestCancel(
    manager: EntityManager,
    id: string,
    cancellation: string,
  ): Promise<{ version: number; stepName: string } | undefined> {
    const rows: Array<{ version: number; step_name: string }> = await manager.query(
      `WITH requested AS (
         UPDATE sagas
            SET cancellation = $2, deadline = clock_timestamp(), version = version + 1, updated_at = clock_timestamp()
          WHERE id = $1 AND state = 'running' AND cancellation IS NULL
          RETURNING version, step_name
       )
       SELECT * FROM requested`,
      [id, cancellation],
    );
    return rows[0] && { version: rows[0].version, stepName: rows[0].step_name };
  },

  /** A saga's state and whether an operator's retry or cancel is pending, for the answer to one that changed nothing. */
  async findState(
    manager: EntityManager,
    id: string,
  ): Promise<{ state: SagaState; deadline: Date | null; cancellation: string | null } | undefined> {
    const rows: Array<{ state: SagaState; deadline: Date | null; cancellation: string | null }> = await manager.query(
      `SELECT state, deadline, cancellation FROM sagas WHERE id = $1`,
      [id],
    );
    return rows[0];
  },

  /**
   * Retention: up to `limit` sagas that ended (`completed`, `compensated`, `cancelled`) before `cutoff`, with their
   * history. Sagas in flight or `failed` are never deleted.
   */
  async deleteEndedBefore(db: DataSource | EntityManager, cutoff: Date, limit: number): Promise<number> {
    const [{ deleted }]: Array<{ deleted: number }> = await db.query(
      `WITH doomed AS (
         SELECT id FROM sagas
          WHERE ended_at < $1 AND state = ANY($3::varchar[])
          ORDER BY ended_at LIMIT $2
       ), history AS (
         DELETE FROM saga_steps s USING doomed d WHERE s.saga_id = d.id
       ), gone AS (
         DELETE FROM sagas g USING doomed d WHERE g.id = d.id RETURNING 1
       )
       SELECT count(*)::int AS deleted FROM gone`,
      [cutoff, limit, ENDED_SAGA_STATES],
    );
    return deleted;
  },

  /** Sagas per type and state, for the `hookrail_sagas` gauge. */
  async countByTypeAndState(
    db: DataSource | EntityManager,
  ): Promise<Array<{ type: string; state: SagaState; count: number }>> {
    return db.query(`SELECT type, state, count(*)::int AS count FROM sagas GROUP BY type, state`);
  },
};

/**
 * The statement of `lockMany`. Both ways in are index lookups (the primary key; type and correlation id) joined by a
 * UNION: an `id = ANY(..) OR (type, correlation_id) IN (..)` filter is a sequential scan of every saga ever run.
 */
export function lockManyStatement(
  ids: string[],
  correlations: SagaCorrelation[],
): { sql: string; parameters: unknown[] } {
  return {
    sql: `SELECT ${COLUMNS} FROM sagas
           WHERE id IN (SELECT unnest($1::uuid[])
                        UNION
                        SELECT s.id FROM unnest($2::varchar[], $3::varchar[]) AS k(type, correlation_id)
                          JOIN sagas s ON s.type = k.type AND s.correlation_id = k.correlation_id)
           ORDER BY id FOR UPDATE`,
    parameters: [ids, correlations.map((key) => key.type), correlations.map((key) => key.correlationId)],
  };
}
