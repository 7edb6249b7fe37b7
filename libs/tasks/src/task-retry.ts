import { decideRetry, errorClassName, errorMessage, nextFailure, RetryPolicy } from '@app/consumer-runtime';

export interface TaskRetrySettings {
  /** The waits (a backoff, or a schedule) and the attempts an unknown error (or a lease that keeps running out) may use. */
  retry: RetryPolicy;
  /** A task failing on a down dependency is retried until this long after its first failure. */
  ceilingMs: number;
}

/** What a task's row says of its attempts so far, the one that just failed included. */
export interface TaskAttempts {
  attempts: number;
  /** Attempts that ended with a dependency down: they do not spend the budget. */
  dependencyFailures: number;
  firstFailedAt: Date | null;
}

/**
 * A failed attempt's verdict, in one word for every kind of task (River's): `retryable`, tried again after
 * `retryInMs`; `discarded`, given up on (dead-lettered). Each kind maps it to the state names its published contract
 * fixes, at its repository and nowhere else (an agent task `failed` / `dead`, a delivery `pending` / `failed`).
 */
export type TaskVerdict = 'retryable' | 'discarded';

export interface TaskFailureDecision {
  verdict: TaskVerdict;
  retryInMs: number;
  errorClass: string;
  message: string;
  /** The dependency the attempt found down: the attempt does not spend the budget. */
  dependency?: string;
}

/**
 * What a failed attempt makes of its task, decided as the consumer runtime decides for a message (`decideRetry`):
 * a permanent error (a provider's 4xx) is discarded at once; a down dependency is retried with a backoff, never sooner
 * than its `Retry-After`, until `ceilingMs` after the task's first failure, and does not spend the attempt budget;
 * anything else is retried, after the policy's wait, until the task's other attempts reach `retry.maxAttempts`.
 */
export function decideTaskFailure(
  task: TaskAttempts,
  error: unknown,
  settings: TaskRetrySettings,
  now = Date.now(),
  random: () => number = Math.random,
): TaskFailureDecision {
  const policy = { retry: settings.retry };
  const failure = nextFailure(undefined, error, task.attempts, policy);
  // The budget counts the attempts that did not end with the dependency down; the backoff of a down one grows with
  // every attempt.
  const counted = failure.dependency ? task.attempts : task.attempts - task.dependencyFailures;
  const decision = decideRetry(
    { ...failure, attempts: counted, spent: counted, firstFailureAt: task.firstFailedAt ?? new Date(now) },
    policy,
    { ceilingMs: settings.ceilingMs, inlineWaitMaxMs: 0 },
    now,
    random,
  );
  return {
    verdict: decision.retry ? 'retryable' : 'discarded',
    retryInMs: decision.retry ? decision.delayMs : 0,
    errorClass: errorClassName(error),
    message: errorMessage(error),
    ...(failure.dependency && { dependency: failure.dependency }),
  };
}
