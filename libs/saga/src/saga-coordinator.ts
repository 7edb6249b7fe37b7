import { PermanentError } from '@app/consumer-runtime';
import { CloudEvent } from '@app/contracts';
import { randomUUID } from 'node:crypto';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { CompiledSaga, SagaState, SagaView } from './saga-definition';
import { buildCommand, buildOutcome, OutgoingMessage } from './saga-messages';
import { decide, SagaMove, startMove } from './saga-transitions';
import { SagaMoveTo, SagaRow, SagasRepository, SagaStepRow } from './sagas.repository';

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
  /**
   * Queues the move of a locked saga, written with the transaction's others before it commits (SagasRepository.
   * moveMany); by default each move is written at once.
   */
  move?(row: SagaRow, to: SagaMoveTo): void;
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
 * the row (guarded by its version), and queues the next command or the outcome for the outbox and one history row. Nothing is sent any other way, so a move and its command commit together or not at all.
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

  /**
   * Starts a saga of `type`, unless one exists for the correlation id (a replayed or repeated start event): then
   * nothing is written and undefined is returned.
   */
  async start<D>(tx: SagaTransaction, type: string, start: StartSaga<D>): Promise<SagaTransition | undefined> {
    const saga = this.definition(type);
    const move = startMove();
    const first = saga.steps[0];
    const id = randomUUID();
    const inserted = await SagasRepository.insert(tx.manager, {
      id,
      type,
      correlationId: start.correlationId,
      startEventId: start.startEventId,
      stepName: first.name,
      data: start.data,
      timeoutMs: first.timeoutMs,
    });
    if (!inserted) {
      this.logger.info(
        { sagaType: type, correlationId: start.correlationId, eventId: start.startEventId },
        'a saga exists for this correlation id already; nothing started',
      );
      return undefined;
    }
    const view: SagaView<D> = { id, correlationId: start.correlationId, data: start.data, results: {} };
    const sent = buildCommand(saga, view, move.send!, 1);
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

  /** The deadline of a locked saga passed (see `expireSagaDeadlines`): resend, compensate or fail. */
  async deadline(tx: SagaTransaction, row: SagaRow): Promise<SagaTransition | undefined> {
    const saga = this.definition(row.type);
    const decision = decide(saga, row, { kind: 'deadline' });
    if (decision.kind === 'ignore') return undefined;
    return this.apply(tx, saga, row, decision, { type: null, id: null }, null);
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
    const sent: OutgoingMessage | undefined = move.send
      ? buildCommand(saga, view, move.send, version)
      : move.outcome && buildOutcome(saga, view, move.outcome, move.failure ?? row.failure, version);
    const to: SagaMoveTo = {
      state: move.state,
      step: move.step,
      stepName: saga.steps[move.step].name,
      attempts: move.attempts,
      timeoutMs: move.send ? saga.steps[move.send.step].timeoutMs : null,
      failure: move.failure ?? null,
      lastError: move.error ?? null,
      results,
      ended: move.state === 'completed' || move.state === 'compensated',
    };
    if (tx.move) tx.move(row, to);
    // The row is locked, so only a bug could get here; rolling back is the safe answer.
    else if (!(await SagasRepository.move(tx.manager, row.id, row.version, to)))
      throw new Error(`saga ${row.id} is no longer at version ${row.version}`);
    if (sent) tx.send(sent);
    tx.history(this.historyRow(saga, row.id, version, move, cause, sent));
    return {
      sagaId: row.id,
      type: row.type,
      state: move.state,
      step: saga.steps[move.step].name,
      event: move.event,
      sent: sent?.event.type ?? null,
    };
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
      detail: move.event === 'retried' ? 'retried by an operator' : (move.error ?? null),
    };
  }

  private definition(type: string): CompiledSaga<any> {
    const saga = this.sagas.get(type);
    if (!saga) throw new PermanentError(`this coordinator runs no saga of type ${type}`);
    return saga;
  }
}

/** A success reply's data without the saga's own fields: what the step produced. */
function resultOf(data: Record<string, unknown>): Record<string, unknown> {
  const { sagaId: _saga, commandId: _command, ...rest } = data;
  return rest;
}
