import { DependencyBreaker } from './dependency-breaker';

describe('dependency breaker', () => {
  const settings = { failureThreshold: 3, probeIntervalMs: 1_000, maxProbeIntervalMs: 4_000 };
  const noJitter = () => 0.5;

  it('opens after the threshold of failures with no answer in between, wherever they came from', () => {
    const breaker = new DependencyBreaker('email-provider', settings, 0, noJitter);
    expect(breaker.recordFailure('503', 'orders|0', undefined, 10)).toBeUndefined();
    expect(breaker.recordAnswer(20)).toBeUndefined();
    expect(breaker.recordFailure('503', 'orders|0', undefined, 30)).toBeUndefined();
    expect(breaker.recordFailure('503', 'orders|1', undefined, 40)).toBeUndefined();
    expect(breaker.recordFailure('503 again', 'orders|2', undefined, 50)).toBe('opened');
    expect(breaker).toMatchObject({ state: 'open', since: new Date(50), lastError: '503 again', nextProbeAt: 1_050 });
  });

  it('probes at a growing interval, never before Retry-After, and counts only the probe against it', () => {
    const breaker = new DependencyBreaker('email-provider', { ...settings, failureThreshold: 1 }, 0, noJitter);
    breaker.recordFailure('503', 'orders|0', undefined, 0);
    breaker.probing('orders|0', 1_000);
    expect(breaker.recordFailure('503', 'orders|1', undefined, 1_100)).toBeUndefined();
    expect(breaker.nextProbeAt).toBe(2_000);
    breaker.recordFailure('503', 'orders|0', undefined, 1_200);
    expect(breaker.nextProbeAt).toBe(3_200);
    breaker.probing('orders|0', 3_200);
    breaker.recordFailure('503', 'orders|0', undefined, 3_300);
    expect(breaker.nextProbeAt).toBe(7_300);
    breaker.probing('orders|0', 7_300);
    breaker.recordFailure('503', 'orders|0', undefined, 7_400);
    expect(breaker.nextProbeAt).toBe(11_400);
    breaker.probing('orders|0', 11_400);
    breaker.recordFailure('429', 'orders|0', 30_000, 11_500);
    expect(breaker.nextProbeAt).toBe(41_500);
    expect(breaker.since).toEqual(new Date(0));
  });

  it('closes on the first answer, and opens again only after a fresh run of failures', () => {
    const breaker = new DependencyBreaker('model', settings, 0, noJitter);
    for (let i = 0; i < 3; i++) breaker.recordFailure('timeout', `t|${i}`, undefined, i);
    expect(breaker.recordAnswer(5_000)).toBe('closed');
    expect(breaker).toMatchObject({ state: 'closed', since: new Date(5_000) });
    expect(breaker.recordAnswer(5_001)).toBeUndefined();
    expect(breaker.recordFailure('timeout', 't|0', undefined, 6_000)).toBeUndefined();
    expect(breaker.state).toBe('closed');
  });

  it('spreads probes by ±20 % so that the processes of a group do not probe together', () => {
    const early = new DependencyBreaker('x', { ...settings, failureThreshold: 1 }, 0, () => 0);
    const late = new DependencyBreaker('x', { ...settings, failureThreshold: 1 }, 0, () => 0.999);
    early.recordFailure('503', 'a|0', undefined, 0);
    late.recordFailure('503', 'a|0', undefined, 0);
    expect(early.nextProbeAt).toBe(800);
    expect(late.nextProbeAt).toBe(1_200);
  });
});
