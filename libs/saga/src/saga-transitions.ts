import { CompiledSaga, ReplyRoute, SagaPhase, SagaState } from './saga-definition';

/** What the coordinator knows of a saga when it decides: its state, current step and sends of the current command. */
export interface SagaPosition {
  state: SagaState;
  step: number;
  attempts: number;
}

/** What happened to the saga. */
export type SagaInput =
  | { kind: 'reply'; route: ReplyRoute; reason?: string }
  /** The deadline passed: the current command went unanswered, or an operator asked to retry a failed saga. */
  | { kind: 'deadline' };

/** How a history row names the event: what happened to the step it concerns. */
export type SagaEventName = 'started' | 'succeeded' | 'failed' | 'timed-out' | 'retried';

export interface SagaMove {
  kind: 'move';
  state: SagaState;
  step: number;
  /** Sends of the new current command (0 when the saga ended or failed). */
  attempts: number;
  event: SagaEventName;
  /** The step and phase the event is about (a reply's, or the timed-out command's). */
  concerns: { step: number; phase: SagaPhase };
  /** The command to send in the same transaction. */
  send?: { step: number; phase: SagaPhase };
  /** The saga ended: publish this outcome in the same transaction. */
  outcome?: 'completed' | 'compensated';
  /** Compensation begins: why (kept as the outcome's reason). */
  failure?: string;
  /** The latest problem (a failure reply, a timeout), shown to operators. */
  error?: string;
}

export type SagaDecision = SagaMove | { kind: 'ignore'; why: string };

/** The first transition: the first step's action goes out. */
export function startMove(): SagaMove {
  return {
    kind: 'move',
    state: 'running',
    step: 0,
    attempts: 1,
    event: 'started',
    concerns: { step: 0, phase: 'action' },
    send: { step: 0, phase: 'action' },
  };
}

/**
 * The whole state machine, without I/O. A reply moves the saga only when it answers the command the saga waits for
 * (same step, same phase, an active state); anything else — a duplicate, a late reply to an earlier attempt, a reply
 * after the saga moved on — is ignored. A failed action compensates the steps before it, in reverse; an action that
 * timed out for good compensates itself too, since it may have happened. A compensation that fails, or times out
 * for good, leaves the saga `failed` for a human.
 */
export function decide(saga: CompiledSaga, position: SagaPosition, input: SagaInput): SagaDecision {
  return input.kind === 'reply' ? onReply(saga, position, input.route, input.reason) : onDeadline(saga, position);
}

function onReply(saga: CompiledSaga, at: SagaPosition, route: ReplyRoute, reason?: string): SagaDecision {
  if (route.step !== at.step) return ignore(`answers step ${route.step}; the saga is at step ${at.step}`);
  const concerns = { step: route.step, phase: route.phase };
  if (route.phase === 'action') {
    if (at.state !== 'running') return ignore(`an action reply while ${at.state}`);
    if (route.outcome === 'failed') {
      const why = reason ?? `${saga.steps[route.step].name} failed`;
      return compensate(saga, route.step - 1, { event: 'failed', concerns, failure: why, error: why });
    }
    if (route.step === saga.steps.length - 1) {
      return {
        kind: 'move',
        state: 'completed',
        step: route.step,
        attempts: 0,
        event: 'succeeded',
        concerns,
        outcome: 'completed',
      };
    }
    const next = { step: route.step + 1, phase: 'action' as const };
    return { kind: 'move', state: 'running', step: next.step, attempts: 1, event: 'succeeded', concerns, send: next };
  }
  // A compensation reply also counts while `failed`: it may come late, or after an operator replayed the command.
  if (at.state !== 'compensating' && at.state !== 'failed') return ignore(`a compensation reply while ${at.state}`);
  if (route.outcome === 'failed') {
    if (at.state === 'failed') return ignore('the saga has already failed');
    const why = reason ?? `compensation of ${saga.steps[route.step].name} failed`;
    return { kind: 'move', state: 'failed', step: route.step, attempts: 0, event: 'failed', concerns, error: why };
  }
  return compensate(saga, route.step - 1, { event: 'succeeded', concerns });
}

function onDeadline(saga: CompiledSaga, at: SagaPosition): SagaDecision {
  const step = saga.steps[at.step];
  if (at.state === 'failed') {
    const send = { step: at.step, phase: 'compensation' as const };
    return { kind: 'move', state: 'compensating', step: at.step, attempts: 1, event: 'retried', concerns: send, send };
  }
  if (at.state !== 'running' && at.state !== 'compensating') return ignore(`no deadline while ${at.state}`);
  const phase: SagaPhase = at.state === 'running' ? 'action' : 'compensation';
  const concerns = { step: at.step, phase };
  const sends = 1 + step.retries;
  const error = `${step.name} (${phase}): no reply within ${step.timeoutMs} ms, attempt ${at.attempts} of ${sends}`;
  if (at.attempts < sends) {
    return {
      kind: 'move',
      state: at.state,
      step: at.step,
      attempts: at.attempts + 1,
      event: 'timed-out',
      concerns,
      send: concerns,
      error,
    };
  }
  if (phase === 'compensation') {
    return { kind: 'move', state: 'failed', step: at.step, attempts: 0, event: 'timed-out', concerns, error };
  }
  // The action may have happened without its reply reaching us: undo it too.
  return compensate(saga, at.step, { event: 'timed-out', concerns, failure: error, error });
}

/** Compensation from step `from` down: the highest step at or below it that has a compensation, else `compensated`. */
function compensate(
  saga: CompiledSaga,
  from: number,
  what: Pick<SagaMove, 'event' | 'concerns' | 'failure' | 'error'>,
): SagaMove {
  for (let step = from; step >= 0; step--) {
    if (!saga.steps[step].compensation) continue;
    const send = { step, phase: 'compensation' as const };
    return { kind: 'move', state: 'compensating', step, attempts: 1, ...what, send };
  }
  return { kind: 'move', state: 'compensated', step: Math.max(from, 0), attempts: 0, ...what, outcome: 'compensated' };
}

function ignore(why: string): SagaDecision {
  return { kind: 'ignore', why };
}
