import { backoffDelay } from '../backoff';
import { classifyError, dependencyOf, ErrorClass, retryAfterOf } from '../classify-error';
import { FailurePolicy } from '../handler';
import { HandledMessage, Liveness } from './message';

export interface Failure {
  error: unknown;
  errorClass: ErrorClass;
  /** How many attempts have failed so far (in this process). */
  attempts: number;
  /**
   * How many of them spend the handler's attempt budget: `transient` failures only. Attempts made while our
   * database was down, after a lost race or while a dependency was down are not the message's fault and spend none.
   * Absent: every attempt counts.
   */
  spent?: number;
  /** When this run of failures began; for a dependency failure, as recorded in Postgres (it survives restarts). */
  firstFailureAt: Date;
  lastFailureAt: Date;
  /** The dependency the message waits on (`dependency` failures). */
  dependency?: string;
  /** The dependency's own `Retry-After`. */
  retryAfterMs?: number;
}

/** How long the group keeps trying, beyond each handler's policy. */
export interface RetrySettings {
  /** A `dependency` failure is retried until this long after its first failure, then dead-lettered. */
  ceilingMs: number;
  /** Waits up to this long happen inside the batch; longer ones, and every dependency wait, hand the partition back. */
  inlineWaitMaxMs: number;
}

export type RetryOutcome<T> =
  | { kind: 'done'; value: T; attempts: number }
  | { kind: 'gave-up'; failure: Failure }
  | { kind: 'interrupted'; failure: Failure }
  /** Not to be tried again before `retryAt`: the caller pauses the partition and leaves the message uncommitted. */
  | { kind: 'waiting'; failure: Failure; retryAt: number; deadlineAt?: number };

export interface RetryHooks {
  /**
   * After each failed attempt, before the decision (status row, breaker). Returns the failure with what is durable
   * merged in: the first failure time that Postgres kept from an earlier process.
   */
  recorded(failure: Failure): Promise<Failure>;
  /** After the decision (log line, metrics). */
  decided(failure: Failure, decision: RetryDecision): void;
  /** A message that had failed on `dependency` got an answer other than that dependency being down. */
  recovered(dependency: string): void;
  /** Waits `ms` while keeping the consumer alive; false when the consumer is stopping and should not retry. */
  wait(ms: number): Promise<boolean>;
}

export type RetryDecision = { retry: false } | { retry: true; delayMs: number; inline: boolean; deadlineAt?: number };

/**
 * Whether and when a failed message is tried again. Poison never. Our database down: always (it is not the message's
 * fault). A down dependency: until the ceiling after its first failure, no sooner than its `Retry-After`, and never
 * inside the batch. Anything else: until the handler's attempt limit.
 */
export function decideRetry(
  failure: Failure,
  policy: FailurePolicy,
  settings: RetrySettings,
  now = Date.now(),
  random: () => number = Math.random,
): RetryDecision {
  const delay = () => backoffDelay(failure.attempts, policy.retry, random);
  switch (failure.errorClass) {
    case 'poison':
      return { retry: false };
    case 'transient':
      if ((failure.spent ?? failure.attempts) >= policy.retry.maxAttempts) return { retry: false };
      break;
    case 'dependency': {
      const deadlineAt = failure.firstFailureAt.getTime() + settings.ceilingMs;
      if (now >= deadlineAt) return { retry: false };
      const wanted = Math.max(delay(), failure.retryAfterMs ?? 0);
      return { retry: true, delayMs: Math.min(wanted, deadlineAt - now), inline: false, deadlineAt };
    }
  }
  const delayMs = delay();
  return { retry: true, delayMs, inline: delayMs <= settings.inlineWaitMaxMs };
}

/** The failure after attempt `n` threw `error`. */
export function nextFailure(previous: Failure | undefined, error: unknown, n: number, policy: FailurePolicy): Failure {
  const now = new Date();
  const errorClass = classifyError(error, policy.isPermanent);
  const dependency = errorClass === 'dependency' ? dependencyOf(error) : undefined;
  return {
    error,
    errorClass,
    attempts: n,
    spent: (previous?.spent ?? 0) + (errorClass === 'transient' ? 1 : 0),
    firstFailureAt: previous?.firstFailureAt ?? now,
    lastFailureAt: now,
    ...(dependency && { dependency, retryAfterMs: retryAfterOf(error) }),
  };
}

/**
 * Runs `attempt` until it succeeds, `decideRetry` says stop, or the wait is too long to spend inside the batch.
 * `from` is a failure that already happened to this message: in the batch transaction (`waited: false`, it counts
 * as the first attempt and is decided here), or before the partition was handed back (`waited: true`: decided, and
 * its wait is over).
 */
export async function retry<T>(
  attempt: (n: number) => Promise<T>,
  policy: FailurePolicy,
  settings: RetrySettings,
  hooks: RetryHooks,
  from?: { failure: Failure; waited: boolean },
): Promise<RetryOutcome<T>> {
  let failure = from?.failure;
  let decide = !from?.waited;
  for (;;) {
    if (failure && decide) {
      if (failure.errorClass !== 'poison') failure = await hooks.recorded(failure);
      const decision = decideRetry(failure, policy, settings);
      hooks.decided(failure, decision);
      if (!decision.retry) return { kind: 'gave-up', failure };
      if (!decision.inline) {
        return { kind: 'waiting', failure, retryAt: Date.now() + decision.delayMs, deadlineAt: decision.deadlineAt };
      }
      if (!(await hooks.wait(decision.delayMs))) return { kind: 'interrupted', failure };
    }
    decide = true;
    const n = (failure?.attempts ?? 0) + 1;
    const waitedOn = failure?.dependency;
    try {
      const value = await attempt(n);
      if (waitedOn) hooks.recovered(waitedOn);
      return { kind: 'done', value, attempts: n };
    } catch (error) {
      failure = nextFailure(failure, error, n, policy);
      if (waitedOn && failure.dependency !== waitedOn) hooks.recovered(waitedOn);
    }
  }
}

/** What the retry step needs of its group: the group's settings, and the hooks around a message's failed attempts. */
export interface RetryStepDeps {
  retry: RetrySettings;
  hooks: { for(source: HandledMessage & { eventId: string; type: string }, controls: Liveness): RetryHooks };
}

/** What the retry step reads of a message on its walk: its liveness, and a failure it had before. */
interface Retried {
  controls: Liveness;
  from?: { failure: Failure; waited: boolean };
}

/**
 * The retry step: tries the message through `next`, one attempt each time, until an attempt succeeds, the message
 * must wait, or it is given up on (the handler's failure policy, the group's settings); it carries on a failure the
 * message had before (`from`).
 */
export function retrying(deps: RetryStepDeps) {
  return <T, D extends Retried>(next: (handled: HandledMessage, attempt: number, delivery: D) => Promise<T>) =>
    (handled: HandledMessage, delivery: D) => {
      const { event, handler } = handled;
      const hooks = deps.hooks.for({ ...handled, eventId: event.id, type: event.type }, delivery.controls);
      return retry((n) => next(handled, n, delivery), handler.policy, deps.retry, hooks, delivery.from);
    };
}
