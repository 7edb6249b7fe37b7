import { LeaseExpiredError } from './agent-worker';
import { ModelRequestRejectedError, ModelUnavailableError } from './model.client';
import { decideAgentTaskFailure } from './task-retry.policy';

describe('what a failed attempt makes of an agent task', () => {
  const settings = { retry: { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000 }, ceilingMs: 3_600_000 };
  const now = Date.parse('2026-01-01T10:00:00Z');
  const highest = () => 0.999;
  const down = (retryAfterMs?: number) => new ModelUnavailableError('model', 'model answered 503', retryAfterMs);
  const task = (attempts: number, dependencyFailures = 0, firstFailedAgoMs?: number) => ({
    attempts,
    dependencyFailures,
    firstFailedAt: firstFailedAgoMs === undefined ? null : new Date(now - firstFailedAgoMs),
  });

  it('retries a down model far beyond the attempt budget, until the ceiling after the first failure', () => {
    expect(decideAgentTaskFailure(task(40, 39, 3_000_000), down(), settings, now, highest)).toMatchObject({
      state: 'failed',
      retryInMs: 59_940,
      errorClass: 'ModelUnavailableError',
      dependency: 'model',
    });
    expect(decideAgentTaskFailure(task(1), down(), settings, now, highest)).toMatchObject({
      state: 'failed',
      retryInMs: 999,
    });
    expect(decideAgentTaskFailure(task(41, 40, 3_600_000), down(), settings, now)).toEqual({
      state: 'dead',
      retryInMs: 0,
      errorClass: 'ModelUnavailableError',
      message: 'model answered 503',
      dependency: 'model',
    });
  });

  it("never retries sooner than the model's Retry-After, nor later than the ceiling", () => {
    expect(decideAgentTaskFailure(task(2, 1, 1_000), down(30_000), settings, now, () => 0)).toMatchObject({
      state: 'failed',
      retryInMs: 30_000,
    });
    expect(decideAgentTaskFailure(task(2, 1, 3_590_000), down(30_000), settings, now)).toMatchObject({
      state: 'failed',
      retryInMs: 10_000,
    });
  });

  it('spends the budget only on attempts that did not find the model down', () => {
    const unknown = new Error('socket hang up in the prompt builder');
    expect(decideAgentTaskFailure(task(12, 10, 60_000), unknown, settings, now)).toMatchObject({ state: 'failed' });
    expect(decideAgentTaskFailure(task(13, 10, 60_000), unknown, settings, now)).toMatchObject({ state: 'dead' });
    expect(decideAgentTaskFailure(task(3), unknown, settings, now)).toMatchObject({
      state: 'dead',
      errorClass: 'Error',
    });
    const expired = new LeaseExpiredError('the lease ran out on 3 attempts without an answer');
    expect(decideAgentTaskFailure(task(14, 10), expired, settings, now)).toMatchObject({
      state: 'dead',
      errorClass: 'LeaseExpiredError',
    });
    expect(decideAgentTaskFailure(task(12, 10), unknown, settings, now)).not.toHaveProperty('dependency');
  });

  it('kills at once what the model refused (a 4xx), whatever is left of budget or ceiling', () => {
    const rejected = new ModelRequestRejectedError('model', 'model answered 400', 400);
    expect(decideAgentTaskFailure(task(1), rejected, settings, now)).toEqual({
      state: 'dead',
      retryInMs: 0,
      errorClass: 'ModelRequestRejectedError',
      message: 'model answered 400',
    });
  });
});
