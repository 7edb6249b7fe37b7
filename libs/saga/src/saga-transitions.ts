import { backoffDelay } from '@app/consumer-runtime';
import { CompiledSaga, ReplyRoute, SagaPhase, SagaState } from './saga-definition';

/** What the coordinator knows of a saga when it decides. */
export interface SagaPosition {
  state: SagaState;
  step: number;
  /** Sends of the current command. */
  attempts: number;
  /** Refusals of the current compensation so far (its policy allows `maxAttempts`). */
  refusals: number;
  /** When the current compensation first failed, refused or unanswered (its policy's ceiling counts from here). */
  failingSince: Date | null;
  /** The deadline is when a refused compensation is sent again, not when a reply is due. */
  backingOff: boolean;
  /**
   * Who or what cancelled the saga. Set while it runs, it is an operator's request the next move carries out; set
   * while it compensates, the saga ends `cancelled` rather than `compensated`.
   */
  cancellation: string | null;
}

/** What happened to the saga. */
export type SagaInput =
  | { kind: 'reply'; route: ReplyRoute; reason?: string }
  /** The deadline passed: a command went unanswered, a backoff ended, or an operator asked for a retry or a cancel. */
  | { kind: 'deadline' }
  /** An outside event cancels the saga. */
  | { kind: 'cancel'; reason: string };

/** The clock and the dice of a decision (tests pass their own). */
export interface DecisionClock {
  now: Date;
  random: () => number;
}

/** How a history row names the event: what happened to the step it concerns. */
export type SagaEventName = 'started' | 'succeeded' | 'failed' | 'timed-out' | 'retried' | 'cancelled';

/** The outcome event a move publishes: the state the saga ended in. */
export type SagaOutcomeName = 'completed' | 'compensated' | 'cancelled';

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
  outcome?: SagaOutcomeName;
  /** Compensation begins: why (kept as the outcome's reason). */
  failure?: string;
  /** The latest problem (a failure reply, a timeout), shown to operators. */
  error?: string;
  /** The history row's detail, when it is not `error`. */
  detail?: string;
  /**
   * The current compensation keeps failing: what its policy has spent, and with `backoffMs` the wait before it is
   * sent again (the new deadline). Absent: nothing failed yet (a new command, the saga ended or failed).
   */
  retry?: { refusals: number; failingSince: Date; backoffMs?: number };
  /** The saga is cancelled, by whom or what. */
  cancellation?: string;
  /**
   * A compensation succeeded while the saga was `failed` (the participant's own retry got through): it goes on by
   * itself, and the coordinator records that in `operator_audit` too.
   */
  recovered?: boolean;
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
 * timed out for good, or a running saga that is cancelled, compensates the current step too, since it may have
 * happened. A compensation that is refused or goes unanswered is sent again on the saga's CompensationPolicy; when
 * that is spent the saga is `failed`, for a human, unless the compensation's success arrives later (the participant's
 * own retry got through): then it goes on by itself.
 */
export function decide(
  saga: CompiledSaga,
  position: SagaPosition,
  input: SagaInput,
  clock: DecisionClock = { now: new Date(), random: Math.random },
): SagaDecision {
  switch (input.kind) {
    case 'reply':
      return onReply(saga, position, input.route, input.reason, clock);
    case 'deadline':
      return onDeadline(saga, position, clock);
    case 'cancel':
      return onCancel(saga, position, input.reason);
  }
}

function onReply(
  saga: CompiledSaga,
  at: SagaPosition,
  route: ReplyRoute,
  reason: string | undefined,
  clock: DecisionClock,
): SagaDecision {
  if (route.step !== at.step) return ignore(`answers step ${route.step}; the saga is at step ${at.step}`);
  const concerns = { step: route.step, phase: route.phase };
  if (route.phase === 'action') {
    if (at.state !== 'running') return ignore(`an action reply while ${at.state}`);
    if (route.outcome === 'failed') {
      const why = reason ?? `${saga.steps[route.step].name} failed`;
      return compensate(saga, at, route.step - 1, { event: 'failed', concerns, failure: why, error: why });
    }
    // An operator asked to cancel: the step is done, so it is undone too.
    if (at.cancellation) return cancel(saga, at, at.cancellation);
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
  if (route.outcome === 'succeeded') {
    if (at.state !== 'failed') return compensate(saga, at, route.step - 1, { event: 'succeeded', concerns });
    const detail = 'succeeded after the saga had failed: it goes on by itself, no operator retry needed';
    return compensate(saga, at, route.step - 1, { event: 'succeeded', concerns, detail, recovered: true });
  }
  if (at.state === 'failed') return ignore('the saga has already failed');
  if (at.backingOff) return ignore('the compensation is refused already; it is sent again after its backoff');
  const why = reason ?? `compensation of ${saga.steps[route.step].name} refused`;
  const policy = saga.compensationPolicy;
  const refusals = at.refusals + 1;
  const failingSince = at.failingSince ?? clock.now;
  const spent =
    refusals >= policy.maxAttempts
      ? `refused ${refusals === 1 ? 'once' : `${refusals} times`}`
      : pastCeiling(saga, failingSince, clock)
        ? `failing for ${Math.round((clock.now.getTime() - failingSince.getTime()) / 1000)} s`
        : undefined;
  if (spent) {
    const error = `${why} (${spent}; an operator must look)`;
    return { kind: 'move', state: 'failed', step: route.step, attempts: 0, event: 'failed', concerns, error };
  }
  const backoffMs = backoffDelay(refusals, policy, clock.random);
  return {
    kind: 'move',
    state: 'compensating',
    step: route.step,
    attempts: at.attempts,
    event: 'failed',
    concerns,
    error: `${why} (refusal ${refusals} of ${policy.maxAttempts}; sent again in ${backoffMs} ms)`,
    retry: { refusals, failingSince, backoffMs },
  };
}

function onDeadline(saga: CompiledSaga, at: SagaPosition, clock: DecisionClock): SagaDecision {
  const step = saga.steps[at.step];
  if (at.state === 'failed') {
    const send = { step: at.step, phase: 'compensation' as const };
    return {
      kind: 'move',
      state: 'compensating',
      step: at.step,
      attempts: 1,
      event: 'retried',
      concerns: send,
      send,
      detail: 'retried by an operator',
    };
  }
  if (at.state === 'running' && at.cancellation) return cancel(saga, at, at.cancellation);
  if (at.state !== 'running' && at.state !== 'compensating') return ignore(`no deadline while ${at.state}`);
  const phase: SagaPhase = at.state === 'running' ? 'action' : 'compensation';
  const concerns = { step: at.step, phase };
  if (phase === 'compensation') {
    const failingSince = at.failingSince ?? clock.now;
    const retry = { refusals: at.refusals, failingSince };
    if (at.backingOff) {
      const detail = `sent again after ${at.refusals} refusal${at.refusals === 1 ? '' : 's'}`;
      const again = { kind: 'move' as const, state: at.state, step: at.step, attempts: at.attempts + 1 };
      return { ...again, event: 'retried', concerns, send: concerns, detail, retry };
    }
    const error = `${step.name} (compensation): no reply within ${step.timeoutMs} ms, attempt ${at.attempts}`;
    if (pastCeiling(saga, failingSince, clock)) {
      const spent = `${error}; unanswered since ${failingSince.toISOString()} (an operator must look)`;
      return { kind: 'move', state: 'failed', step: at.step, attempts: 0, event: 'timed-out', concerns, error: spent };
    }
    const again = { kind: 'move' as const, state: at.state, step: at.step, attempts: at.attempts + 1 };
    return { ...again, event: 'timed-out', concerns, send: concerns, error, retry };
  }
  const sends = 1 + step.retries;
  const error = `${step.name} (action): no reply within ${step.timeoutMs} ms, attempt ${at.attempts} of ${sends}`;
  if (at.attempts < sends) {
    const again = { kind: 'move' as const, state: at.state, step: at.step, attempts: at.attempts + 1 };
    return { ...again, event: 'timed-out', concerns, send: concerns, error };
  }
  // The action may have happened without its reply reaching us: undo it too.
  return compensate(saga, at, at.step, { event: 'timed-out', concerns, failure: error, error });
}

function onCancel(saga: CompiledSaga, at: SagaPosition, reason: string): SagaDecision {
  if (at.state !== 'running') return ignore(`a ${at.state} saga is not cancelled`);
  return cancel(saga, at, reason);
}

/** A running saga is cancelled: its current step's command went out, so it is compensated from there down. */
function cancel(saga: CompiledSaga, at: SagaPosition, reason: string): SagaMove {
  const concerns = { step: at.step, phase: 'action' as const };
  const detail = `cancelled: ${reason}`;
  return compensate(saga, { ...at, cancellation: reason }, at.step, {
    event: 'cancelled',
    concerns,
    failure: reason,
    detail,
    cancellation: reason,
  });
}

/**
 * Compensation from step `from` down: the highest step at or below it that has a compensation, else the end:
 * `cancelled` when the saga was cancelled, `compensated` otherwise.
 */
function compensate(
  saga: CompiledSaga,
  at: SagaPosition,
  from: number,
  what: Pick<SagaMove, 'event' | 'concerns' | 'failure' | 'error' | 'detail' | 'cancellation' | 'recovered'>,
): SagaMove {
  for (let step = from; step >= 0; step--) {
    if (!saga.steps[step].compensation) continue;
    const send = { step, phase: 'compensation' as const };
    return { kind: 'move', state: 'compensating', step, attempts: 1, ...what, send };
  }
  const end = at.cancellation || what.cancellation ? 'cancelled' : 'compensated';
  return { kind: 'move', state: end, step: Math.max(from, 0), attempts: 0, ...what, outcome: end };
}

function pastCeiling(saga: CompiledSaga, failingSince: Date, clock: DecisionClock): boolean {
  return clock.now.getTime() - failingSince.getTime() >= saga.compensationPolicy.ceilingMs;
}

function ignore(why: string): SagaDecision {
  return { kind: 'ignore', why };
}
