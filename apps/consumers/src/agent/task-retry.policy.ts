import { decideRetry, errorClassName, errorMessage, nextFailure, RetryPolicy } from '@app/consumer-runtime';
import { ClaimedAgentTask, TaskFailure } from './agent-tasks.repository';

export interface TaskRetrySettings {
  /** Backoff, and the attempts an unknown error (or a lease that keeps running out) may use. */
  retry: RetryPolicy;
  /** A task failing on a down dependency is retried until this long after its first failure. */
  ceilingMs: number;
}

/**
 * What a failed attempt makes of its task, decided as the consumer runtime decides for a message (`decideRetry`):
 * a permanent error (a 4xx from the model) is `dead` at once; a down dependency (`ModelUnavailableError`) is `failed`
 * with a backoff, never sooner than its `Retry-After`, until `ceilingMs` after the task's first failure, and does not
 * spend the attempt budget; anything else is `failed` until the task's other attempts reach `retry.maxAttempts`.
 */
export function decideTaskFailure(
  task: Pick<ClaimedAgentTask, 'attempts' | 'dependencyFailures' | 'firstFailedAt'>,
  error: unknown,
  settings: TaskRetrySettings,
  now = Date.now(),
  random: () => number = Math.random,
): TaskFailure {
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
    state: decision.retry ? 'failed' : 'dead',
    retryInMs: decision.retry ? decision.delayMs : 0,
    errorClass: errorClassName(error),
    message: errorMessage(error),
    ...(failure.dependency && { dependency: failure.dependency }),
  };
}
