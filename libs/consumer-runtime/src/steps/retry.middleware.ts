import { backoffDelay } from '../backoff';
import { classifyError, ErrorClass } from '../classify-error';
import { FailurePolicy } from '../handler';

export interface Failure {
  error: unknown;
  errorClass: ErrorClass;
  /** How many attempts have failed so far. */
  attempts: number;
  firstFailureAt: Date;
  lastFailureAt: Date;
}

export type RetryOutcome<T> =
  | { kind: 'done'; value: T; attempts: number }
  | { kind: 'gave-up'; failure: Failure }
  | { kind: 'interrupted'; failure: Failure };

export interface RetryHooks {
  /** After each failed attempt (status row, metrics, log). */
  onFailure(failure: Failure, willRetry: boolean): Promise<void>;
  /** Waits `ms` while keeping the consumer alive; false when the consumer is stopping and should not retry. */
  wait(ms: number): Promise<boolean>;
}

/** Poison never; our database being down always (it is not the message's fault); anything else until the limit. */
export function shouldRetry(failure: Pick<Failure, 'errorClass' | 'attempts'>, policy: FailurePolicy): boolean {
  if (failure.errorClass === 'poison') return false;
  if (failure.errorClass === 'unavailable') return true;
  return failure.attempts < policy.retry.maxAttempts;
}

/**
 * Runs `attempt` until it succeeds or `shouldRetry` says stop, waiting `backoffDelay` between attempts. `prior` is a
 * failure that already happened to this message (in a batch transaction); it counts as the first attempt.
 */
export async function retry<T>(
  attempt: (n: number) => Promise<T>,
  policy: FailurePolicy,
  hooks: RetryHooks,
  prior?: Failure,
): Promise<RetryOutcome<T>> {
  let failure = prior;
  if (failure) {
    const willRetry = shouldRetry(failure, policy);
    await hooks.onFailure(failure, willRetry);
    if (!willRetry) return { kind: 'gave-up', failure };
  }
  for (let n = (failure?.attempts ?? 0) + 1; ; n++) {
    if (failure && !(await hooks.wait(backoffDelay(failure.attempts, policy.retry))))
      return { kind: 'interrupted', failure };
    try {
      return { kind: 'done', value: await attempt(n), attempts: n };
    } catch (error) {
      const now = new Date();
      failure = {
        error,
        errorClass: classifyError(error, policy.isPermanent),
        attempts: n,
        firstFailureAt: failure?.firstFailureAt ?? now,
        lastFailureAt: now,
      };
      const willRetry = shouldRetry(failure, policy);
      await hooks.onFailure(failure, willRetry);
      if (!willRetry) return { kind: 'gave-up', failure };
    }
  }
}
