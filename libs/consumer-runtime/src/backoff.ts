/** How often a failing message is tried and how long to wait in between. */
export interface RetryPolicy {
  /** Total attempts, the first one included; after the last one a transient failure is dead-lettered. */
  maxAttempts: number;
  /** Upper bound of the first wait; it doubles with every attempt. */
  baseDelayMs: number;
  /** No wait is ever longer than this. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): after failed
 * attempt n the wait is uniform in [0, min(max, base · 2^(n-1))]. Jitter spreads the retries of many consumers
 * that failed together; the cap keeps a long outage from turning into hour-long sleeps.
 */
export function backoffDelay(failedAttempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failedAttempt - 1, 0), 30);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}
