import { OperatorAuditRepository } from '@app/audit';
import { PermanentError } from '@app/consumer-runtime';
import { CloudEvent } from '@app/contracts';
import { randomUUID } from 'node:crypto';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { CompiledSaga, ENDED_SAGA_STATES, SagaState, SagaStep, SagaView } from './saga-definition';
import { buildCommand, buildOutcome, OutgoingMessage } from './saga-messages';
import { decide, SagaInput, SagaMove, startMove } from './saga-transitions';
import { NewSaga, SagaMoveTo, SagaRow, SagasRepository, SagaStepRow } from './sagas.repository';

/**
 * The transaction a saga moves in: the consumer's (holding the dedupe row of the message that caused the move) or
 * the deadline job's. `history` queues the transition's `saga_steps` row and `send` its command or outcome for the
 * outbox, both written (one statement each for the whole transaction) before it commits.
 */
export interface SagaTransaction {
  manager: EntityManager;
  history(row: SagaStepRow): void;
  send(message: OutgoingMessage): void;
  /**
   * The saga, locked until the transaction ends. The consumer's transaction locks every saga its batch of replies
   * needs in one statement (SagaLocks); by default one `SELECT … FOR UPDATE` each.
   */
  lock?(id: string): Promise<SagaRow | undefined>;
  /** The saga of this type and correlation id, locked likewise; by default one `SELECT … FOR UPDATE`. */
  lockCorrelated?(type: string, correlationId: string): Promise<SagaRow | undefined>;
  /**
   * Queues the move of a locked saga, written with the transaction's others before it commits (SagasRepository.
   * moveMany); by default each move is written at once.
   */
  move?(row: SagaRow, to: SagaMoveTo): void;
  /**
   * Queues a new saga's insert, written with the transaction's others before it commits (SagasRepository.insertMany);
   * false when one exists for its type and correlation id. By default each saga is inserted at once.
   */
  insert?(saga: NewSaga): Promise<boolean>;
}

/** What moved, for logs and metrics once the transaction committed. */
export interface SagaTransition {
  sagaId: string;
  type: string;
  state: SagaState;
  step: string;
  event: string;
  sent: string | null;
}

/** A reply as the coordinator reads it. */
export type SagaReplyEvent = CloudEvent<{ sagaId: string; commandId: string; reason?: string }>;

export interface StartSaga<D> {
  /** The aggregate: one saga per type and correlation id; the key of every message the saga sends. */
  correlationId: string;
  /** The event that asked for the saga (shown with it). */
  startEventId: string;
  data: D;
}

/**
 * Moves sagas: each move locks the saga's row, decides with `decide` (pure), then in the caller's transaction updates
 * the row (guarded by its version), and queues the next command or the outcome for the outbox and one history row.
 * Nothing is sent any other way, so a move and its command commit together or not at all.
 */
export class SagaCoordinator {
  private readonly sagas: ReadonlyMap<string, CompiledSaga<any>>;

  constructor(
    definitions: ReadonlyArray<CompiledSaga<any>>,
    private readonly logger: Logger,
  ) {
    this.sagas = new Map(definitions.map((saga) => [saga.type, saga]));
  }

  /** Every reply type of every saga this coordinator runs. */
  get replyTypes(): string[] {
    return [...this.sagas.values()].flatMap((saga) => saga.replyTypes);
  }

  /** Every outside event type that cancels one of its sagas (`cancelledBy`). */
  get cancellationTypes(): string[] {
    return [...new Set([...this.sagas.values()].flatMap((saga) => (saga.cancelledBy ?? []).map((c) => c.type)))];
  }

  /**
   * Starts a saga of `type`, unless one exists for the correlation id (a replayed or repeated start event): then
   * nothing is written and undefined is returned.
   */
  async start<D>(tx: SagaTransaction, type: string, start: StartSaga<D>): Promise<SagaTransition | undefined> {
    const saga = this.definition(type);
    const move = startMove();
    const first = saga.steps[0];
    const id = randomUUID();
    const row: NewSaga = {
      id,
      type,
      correlationId: start.correlationId,
      startEventId: start.startEventId,
      stepName: first.name,
      data: start.data,
      timeoutMs: first.timeoutMs,
    };
    const inserted = await (tx.insert ? tx.insert(row) : SagasRepository.insert(tx.manager, row));
    if (!inserted) {
      this.logger.info(
        { sagaType: type, correlationId: start.correlationId, eventId: start.startEventId },
        'a saga exists for this correlation id already; nothing started',
      );
      return undefined;
    }
    const view: SagaView<D> = { id, correlationId: start.correlationId, data: start.data, results: {} };
    const sent = buildCommand(saga, view, move.send!, 1, actionDeadline(first, move.attempts));
    tx.send(sent);
    tx.history(this.historyRow(saga, id, 1, move, { type: null, id: start.startEventId }, sent));
    return { sagaId: id, type, state: move.state, step: first.name, event: move.event, sent: sent.event.type };
  }

  /**
   * Applies a participant's reply. A reply the saga does not wait for (a duplicate, a late answer to an earlier
   * attempt, one after the saga moved on) changes nothing. A reply for no known saga is a PermanentError.
   */
  async reply(tx: SagaTransaction, reply: SagaReplyEvent): Promise<SagaTransition | undefined> {
    const row = await (tx.lock ? tx.lock(reply.data.sagaId) : SagasRepository.lock(tx.manager, reply.data.sagaId));
    if (!row) throw new PermanentError(`no saga ${reply.data.sagaId} for reply ${reply.type}`);
    const saga = this.definition(row.type);
    const route = saga.route(reply.type);
    if (!route) throw new PermanentError(`saga ${row.type} does not expect ${reply.type}`);
    const decision = decide(saga, row, { kind: 'reply', route, reason: reply.data.reason });
    if (decision.kind === 'ignore') {
      this.logger.info(
        { sagaId: row.id, eventId: reply.id, replyType: reply.type, state: row.state, why: decision.why },
        'saga reply ignored',
      );
      return undefined;
    }
    const results =
      route.phase === 'action' && route.outcome === 'succeeded'
        ? { [saga.steps[route.step].name]: resultOf(reply.data) }
        : null;
    return this.apply(tx, saga, row, decision, { type: reply.type, id: reply.id }, results);
  }

  /**
   * The deadline of a locked saga passed (see `expireSagaDeadlines`): resend, compensate or fail; send a refused
   * compensation again after its backoff; carry out an operator's retry or cancel.
   */
  async deadline(tx: SagaTransaction, row: SagaRow): Promise<SagaTransition | undefined> {
    const saga = this.definition(row.type);
    const decision = decide(saga, row, { kind: 'deadline' });
    if (decision.kind === 'ignore') return undefined;
    return this.apply(tx, saga, row, decision, { type: null, id: null }, null);
  }

  /**
   * An outside event that cancels sagas (`cancelledBy`): each saga it names that is running compensates what it did
   * and ends `cancelled`. A saga that is not running (already compensating, ended, failed), or none at all, is left
   * as it is and logged.
   */
  async cancel(tx: SagaTransaction, event: CloudEvent<unknown>): Promise<SagaTransition[]> {
    const transitions: SagaTransition[] = [];
    for (const saga of this.sagas.values()) {
      const cancellation = saga.cancellation(event.type);
      if (!cancellation) continue;
      const correlationId = cancellation.correlationId(event.data);
      const row = await (tx.lockCorrelated
        ? tx.lockCorrelated(saga.type, correlationId)
        : SagasRepository.lockByCorrelation(tx.manager, saga.type, correlationId));
      const fields = { sagaType: saga.type, correlationId, eventId: event.id, eventType: event.type };
      if (!row) {
        this.logger.info(fields, 'no saga to cancel');
        continue;
      }
      const reason = cancellation.reason?.(event.data) ?? event.type;
      const input: SagaInput = { kind: 'cancel', reason };
      const decision = decide(saga, row, input);
      if (decision.kind === 'ignore') {
        this.logger.info({ ...fields, sagaId: row.id, state: row.state, why: decision.why }, 'saga cancel ignored');
        continue;
      }
      transitions.push(await this.apply(tx, saga, row, decision, { type: event.type, id: event.id }, null));
    }
    return transitions;
  }

  private async apply(
    tx: SagaTransaction,
    saga: CompiledSaga<any>,
    row: SagaRow,
    move: SagaMove,
    cause: { type: string | null; id: string | null },
    results: Record<string, unknown> | null,
  ): Promise<SagaTransition> {
    const version = row.version + 1;
    const view: SagaView<unknown> = {
      id: row.id,
      correlationId: row.correlationId,
      data: row.data,
      results: { ...row.results, ...(results as SagaView<unknown>['results']) },
    };
    const reason =
      move.outcome === 'cancelled' ? (move.cancellation ?? row.cancellation) : (move.failure ?? row.failure);
    const sent: OutgoingMessage | undefined = move.send
      ? buildCommand(saga, view, move.send, version, actionDeadline(saga.steps[move.send.step], move.attempts))
      : move.outcome && buildOutcome(saga, view, move.outcome, reason, version);
    const to: SagaMoveTo = {
      state: move.state,
      step: move.step,
      stepName: saga.steps[move.step].name,
      attempts: move.attempts,
      timeoutMs: move.send ? saga.steps[move.send.step].timeoutMs : (move.retry?.backoffMs ?? null),
      failure: move.failure ?? null,
      lastError: move.error ?? null,
      results,
      ended: ENDED_SAGA_STATES.includes(move.state),
      refusals: move.retry?.refusals ?? 0,
      failingSince: move.retry?.failingSince ?? null,
      backingOff: move.retry?.backoffMs !== undefined,
      cancellation: move.cancellation ?? null,
    };
    if (tx.move) tx.move(row, to);
    // The row is locked, so only a bug could get here; rolling back is the safe answer.
    else if (!(await SagasRepository.move(tx.manager, row.id, row.version, to)))
      throw new Error(`saga ${row.id} is no longer at version ${row.version}`);
    if (sent) tx.send(sent);
    tx.history(this.historyRow(saga, row.id, version, move, cause, sent));
    if (move.recovered) await this.auditRecovery(tx, saga, row.id, move, cause);
    return {
      sagaId: row.id,
      type: row.type,
      state: move.state,
      step: saga.steps[move.step].name,
      event: move.event,
      sent: sent?.event.type ?? null,
    };
  }

  /**
   * A `failed` saga went on without an operator: audited beside the operators' retries and cancels, so that whoever
   * looks for what moved it finds why no retry was needed.
   */
  private async auditRecovery(
    tx: SagaTransaction,
    saga: CompiledSaga<any>,
    sagaId: string,
    move: SagaMove,
    cause: { type: string | null; id: string | null },
  ): Promise<void> {
    await new OperatorAuditRepository(tx.manager).record({
      actor: 'hookrail',
      action: 'saga-recovered',
      subjectType: 'saga',
      subjectId: sagaId,
      details: { step: saga.steps[move.concerns.step].name, reply: cause.type, replyId: cause.id, state: move.state },
      count: 1,
    });
  }

  private historyRow(
    saga: CompiledSaga<any>,
    sagaId: string,
    seq: number,
    move: SagaMove,
    cause: { type: string | null; id: string | null },
    sent: OutgoingMessage | undefined,
  ): SagaStepRow {
    return {
      sagaId,
      type: saga.type,
      seq,
      step: saga.steps[move.concerns.step].name,
      phase: move.concerns.phase,
      event: move.event,
      state: move.state,
      causeType: cause.type,
      causeId: cause.id,
      sentType: sent?.event.type ?? null,
      sentId: sent?.event.id ?? null,
      detail: move.detail ?? move.error ?? null,
    };
  }

  private definition(type: string): CompiledSaga<any> {
    const saga = this.sagas.get(type);
    if (!saga) throw new PermanentError(`this coordinator runs no saga of type ${type}`);
    return saga;
  }
}

/**
 * When the saga stops waiting for a step's action: its last send's deadline, as far as this send can tell (each
 * unanswered send waits `timeoutMs`, and `retries` more follow the first). A participant drops an action it gets
 * later unapplied (`sagaActionExpired`), so that the compensation queued behind it on the same key is not held up.
 */
function actionDeadline(step: SagaStep<unknown>, attempts: number): Date {
  return new Date(Date.now() + step.timeoutMs * (step.retries + 2 - attempts));
}

/** A success reply's data without the saga's own fields: what the step produced. */
function resultOf(data: Record<string, unknown>): Record<string, unknown> {
  const { sagaId: _saga, commandId: _command, ...rest } = data;
  return rest;
}
