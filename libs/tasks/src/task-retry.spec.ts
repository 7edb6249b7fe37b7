import { DependencyUnavailableError, PermanentError } from '@app/consumer-runtime';
import { decideTaskFailure } from './task-retry';

class LeaseExpiredError extends Error {
  override name = 'LeaseExpiredError';
}

describe('what a failed attempt makes of a task (one verdict for every kind)', () => {
  const settings = { retry: { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000 }, ceilingMs: 3_600_000 };
  const now = Date.parse('2026-01-01T10:00:00Z');
  const highest = () => 0.999;
  const down = (retryAfterMs?: number) => new DependencyUnavailableError('model', 'model answered 503', retryAfterMs);
  const task = (attempts: number, dependencyFailures = 0, firstFailedAgoMs?: number) => ({
    attempts,
    dependencyFailures,
    firstFailedAt: firstFailedAgoMs === undefined ? null : new Date(now - firstFailedAgoMs),
  });

  it('retries a down model far beyond the attempt budget, until the ceiling after the first failure', () => {
    expect(decideTaskFailure(task(40, 39, 3_000_000), down(), settings, now, highest)).toMatchObject({
      verdict: 'retryable',
      retryInMs: 59_940,
      errorClass: 'DependencyUnavailableError',
      dependency: 'model',
    });
    expect(decideTaskFailure(task(1), down(), settings, now, highest)).toMatchObject({
      verdict: 'retryable',
      retryInMs: 999,
    });
    expect(decideTaskFailure(task(41, 40, 3_600_000), down(), settings, now)).toEqual({
      verdict: 'discarded',
      retryInMs: 0,
      errorClass: 'DependencyUnavailableError',
      message: 'model answered 503',
      dependency: 'model',
    });
  });

  it("never retries sooner than the model's Retry-After, nor later than the ceiling", () => {
    expect(decideTaskFailure(task(2, 1, 1_000), down(30_000), settings, now, () => 0)).toMatchObject({
      verdict: 'retryable',
      retryInMs: 30_000,
    });
    expect(decideTaskFailure(task(2, 1, 3_590_000), down(30_000), settings, now)).toMatchObject({
      verdict: 'retryable',
      retryInMs: 10_000,
    });
  });

  it('spends the budget only on attempts that did not find the model down', () => {
    const unknown = new Error('socket hang up in the prompt builder');
    expect(decideTaskFailure(task(12, 10, 60_000), unknown, settings, now)).toMatchObject({ verdict: 'retryable' });
    expect(decideTaskFailure(task(13, 10, 60_000), unknown, settings, now)).toMatchObject({ verdict: 'discarded' });
    expect(decideTaskFailure(task(3), unknown, settings, now)).toMatchObject({
      verdict: 'discarded',
      errorClass: 'Error',
    });
    const expired = new LeaseExpiredError('the lease ran out on 3 attempts without an answer');
    expect(decideTaskFailure(task(14, 10), expired, settings, now)).toMatchObject({
      verdict: 'discarded',
      errorClass: 'LeaseExpiredError',
    });
    expect(decideTaskFailure(task(12, 10), unknown, settings, now)).not.toHaveProperty('dependency');
  });

  it('kills at once what the model refused (a 4xx), whatever is left of budget or ceiling', () => {
    const rejected = new PermanentError('model answered 400');
    expect(decideTaskFailure(task(1), rejected, settings, now)).toEqual({
      verdict: 'discarded',
      retryInMs: 0,
      errorClass: 'PermanentError',
      message: 'model answered 400',
    });
  });

  it('waits as a schedule says when the policy has one (outbound deliveries), and discards after its last entry', () => {
    const delaysMs = [0, 5_000, 300_000, 1_800_000];
    const scheduled = {
      retry: { maxAttempts: 4, baseDelayMs: 0, maxDelayMs: 0, schedule: { delaysMs, jitter: 0.1 } },
      ceilingMs: 0,
    };
    const refused = new Error('HTTP 503');
    expect([1, 2, 3].map((n) => decideTaskFailure(task(n), refused, scheduled, now, () => 0.5).retryInMs)).toEqual([
      5_000, 300_000, 1_800_000,
    ]);
    expect(decideTaskFailure(task(1), refused, scheduled, now, () => 0).retryInMs).toBe(4_500);
    expect(decideTaskFailure(task(1), refused, scheduled, now, () => 0.999999).retryInMs).toBe(5_500);
    expect(decideTaskFailure(task(4), refused, scheduled, now)).toEqual({
      verdict: 'discarded',
      retryInMs: 0,
      errorClass: 'Error',
      message: 'HTTP 503',
    });
  });
});
