/**
 * How often a failing message or task is tried and how long to wait in between: the one retry policy of consumer
 * groups, agent tasks and outbound deliveries. The waits follow a backoff, or a fixed `schedule`.
 */
export interface RetryPolicy {
  /** Total attempts, the first one included; after the last one a transient failure is given up on. */
  maxAttempts: number;
  /** Backoff: upper bound of the first wait; it doubles with every attempt. */
  baseDelayMs: number;
  /** Backoff: no wait is ever longer than this. */
  maxDelayMs: number;
  /**
   * Waits fixed per attempt instead of the backoff (outbound deliveries): entry n is the wait after failed attempt n,
   * entry 0 the wait before the first; each is moved by up to `jitter` (a fraction) either way, so that what failed
   * together spreads out. Past its end, its last entry.
   */
  schedule?: { delaysMs: readonly number[]; jitter: number };
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

/**
 * The wait after failed attempt n. With a schedule, its entry n, jittered. Otherwise exponential backoff with full
 * jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): uniform in [0, min(max, base · 2^(n-1))]. Jitter
 * spreads the retries of many consumers that failed together; the cap keeps a long outage from turning into
 * hour-long sleeps.
 */
export function backoffDelay(failedAttempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const { schedule } = policy;
  if (schedule) {
    const { delaysMs, jitter } = schedule;
    const base = delaysMs[Math.min(Math.max(failedAttempt, 0), delaysMs.length - 1)];
    return Math.max(0, Math.round(base * (1 + jitter * (2 * random() - 1))));
  }
  const exponent = Math.min(Math.max(failedAttempt - 1, 0), 30);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}
