import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('doubles up to the maximum', () => {
    const top = (attempt: number) => backoffDelay(attempt, { baseMs: 100, maxMs: 1000, random: () => 1 });
    expect([1, 2, 3, 4, 5, 9].map(top)).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('jitters between half and all of the ceiling', () => {
    expect(backoffDelay(3, { baseMs: 100, maxMs: 1000, random: () => 0 })).toBe(200);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelay(3, { baseMs: 100, maxMs: 1000 });
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
  });
});
