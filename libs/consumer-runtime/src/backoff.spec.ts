import { backoffDelay, DEFAULT_RETRY_POLICY, RetryPolicy } from './backoff';

describe('backoffDelay (exponential, full jitter, capped)', () => {
  const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };

  it('doubles the ceiling with every failed attempt', () => {
    const ceilings = [1, 2, 3, 4].map((attempt) => backoffDelay(attempt, policy, () => 0.999999));
    expect(ceilings).toEqual([99, 199, 399, 799]);
  });

  it('never exceeds the cap, however many attempts failed', () => {
    expect(backoffDelay(5, policy, () => 0.999999)).toBe(999);
    expect(backoffDelay(500, policy, () => 0.999999)).toBe(999);
  });

  it('spreads over the whole range from zero (full jitter)', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
  });

  it('defaults to five attempts', () => {
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBe(5);
  });
});
