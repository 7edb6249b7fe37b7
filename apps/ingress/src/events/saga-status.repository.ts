import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** One transition of a saga, as `GET /events/:id` shows it. */
export interface SagaTransitionView {
  seq: number;
  /** The step the transition is about, and whether its action or its compensation. */
  step: string;
  phase: string;
  /** started, succeeded, failed, timed-out, retried, cancelled; an operator's retry-requested, cancel-requested. */
  event: string;
  /** The saga's state after it. */
  state: string;
  /** The reply that caused it, if a reply did. */
  reply: string | null;
  /** The command or outcome it sent. */
  sent: string | null;
  detail: string | null;
  at: string;
}

/** The saga an event started (the order fulfilment saga of a `shop.order.placed.v1`). */
export interface EventSagaView {
  id: string;
  type: string;
  state: string;
  /** The current step. */
  step: string;
  attempts: number;
  deadline: string | null;
  failure: string | null;
  lastError: string | null;
  updatedAt: string;
  history: SagaTransitionView[];
}

/** Read side of `sagas` and `saga_steps` for the status API; the saga coordinator (apps/consumers) owns the writes. */
@Injectable()
export class SagaStatusRepository {
  async findByStartEvent(manager: EntityManager, eventId: string): Promise<EventSagaView | undefined> {
    const sagas: Array<Record<string, any>> = await manager.query(
      `SELECT id, type, state, step_name, attempts, deadline, failure, last_error, updated_at
         FROM sagas WHERE start_event_id = $1 ORDER BY created_at LIMIT 1`,
      [eventId],
    );
    const saga = sagas[0];
    if (!saga) return undefined;
    const steps: Array<Record<string, any>> = await manager.query(
      `SELECT seq, step, phase, event, state, cause_type, sent_type, detail, at
         FROM saga_steps WHERE saga_id = $1 ORDER BY seq`,
      [saga.id],
    );
    return {
      id: saga.id,
      type: saga.type,
      state: saga.state,
      step: saga.step_name,
      attempts: saga.attempts,
      deadline: saga.deadline ? saga.deadline.toISOString() : null,
      failure: saga.failure,
      lastError: saga.last_error,
      updatedAt: saga.updated_at.toISOString(),
      history: steps.map((row) => ({
        seq: row.seq,
        step: row.step,
        phase: row.phase,
        event: row.event,
        state: row.state,
        reply: row.cause_type,
        sent: row.sent_type,
        detail: row.detail,
        at: row.at.toISOString(),
      })),
    };
  }
}
