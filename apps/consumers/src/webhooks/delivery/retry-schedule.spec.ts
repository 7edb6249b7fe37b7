import { backoffDelay } from '@app/consumer-runtime';
import { decideTaskFailure } from '@app/tasks';
import { parseDuration, RetrySchedule } from './retry-schedule';

describe('RetrySchedule', () => {
  it('reads durations with units', () => {
    expect(['0', '250ms', '5s', '5m', '2h', '10h', '1d', '1.5s'].map(parseDuration)).toEqual([
      0, 250, 5_000, 300_000, 7_200_000, 36_000_000, 86_400_000, 1_500,
    ]);
    expect(['5', 'five', '-1s', '5w', ''].map(parseDuration)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('defaults to immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts', () => {
    const schedule = RetrySchedule.parse(RetrySchedule.DEFAULT, 0);
    expect(schedule.attempts).toBe(8);
    expect(schedule.firstDelayMs).toBe(0);
    const after = (attempts: number) =>
      decideTaskFailure({ attempts, dependencyFailures: 0, firstFailedAt: null }, new Error('HTTP 500'), {
        retry: schedule.policy,
        ceilingMs: 0,
      });
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => after(attempt))).toEqual(
      [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000].map((retryInMs) =>
        expect.objectContaining({ verdict: 'retryable', retryInMs }),
      ),
    );
    expect(after(8)).toMatchObject({ verdict: 'discarded' });
  });

  it('moves each wait by up to the jitter fraction, either way', () => {
    const schedule = RetrySchedule.parse('0,10s', 0.2);
    expect(backoffDelay(1, schedule.policy, () => 0)).toBe(8_000);
    expect(backoffDelay(1, schedule.policy, () => 0.5)).toBe(10_000);
    expect(backoffDelay(1, schedule.policy, () => 0.999999)).toBe(12_000);
  });

  it('names a malformed step', () => {
    expect(() => RetrySchedule.parse('0,5s,soon', 0.2)).toThrow('"soon" is not a duration');
  });
});
