import { SagaDetail } from '@app/saga';

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

/** A saga (read through libs/saga's `SagaViews`) as the status API shows it. */
export function toEventSagaView(saga: SagaDetail): EventSagaView {
  return {
    id: saga.id,
    type: saga.type,
    state: saga.state,
    step: saga.step,
    attempts: saga.attempts,
    deadline: saga.deadline ? saga.deadline.toISOString() : null,
    failure: saga.failure,
    lastError: saga.lastError,
    updatedAt: saga.updatedAt.toISOString(),
    history: saga.history.map((entry) => ({
      seq: entry.seq,
      step: entry.step,
      phase: entry.phase,
      event: entry.event,
      state: entry.state,
      reply: entry.causeType,
      sent: entry.sentType,
      detail: entry.detail,
      at: entry.at.toISOString(),
    })),
  };
}
