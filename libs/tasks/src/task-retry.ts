import { decideRetry, errorClassName, errorMessage, nextFailure, RetryPolicy } from '@app/consumer-runtime';

export interface TaskRetrySettings {
  /** Backoff, and the attempts an unknown error (or a lease that keeps running out) may use. */
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

/** A failed attempt's verdict: tried again after `retryInMs`, or given up on (`retry: false`, the task is dead). */
export interface TaskFailureDecision {
  retry: boolean;
  retryInMs: number;
  errorClass: string;
  message: string;
  /** The dependency the attempt found down: the attempt does not spend the budget. */
  dependency?: string;
}

/**
 * What a failed attempt makes of its task, decided as the consumer runtime decides for a message (`decideRetry`):
 * a permanent error (a provider's 4xx) gives up at once; a down dependency is retried with a backoff, never sooner
 * than its `Retry-After`, until `ceilingMs` after the task's first failure, and does not spend the attempt budget;
 * anything else is retried until the task's other attempts reach `retry.maxAttempts`.
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
    retry: decision.retry,
    retryInMs: decision.retry ? decision.delayMs : 0,
    errorClass: errorClassName(error),
    message: errorMessage(error),
    ...(failure.dependency && { dependency: failure.dependency }),
  };
}
