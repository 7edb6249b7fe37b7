import { DependencyUnavailableError, PermanentError } from '../errors';
import { FailurePolicy } from '../handler';
import { decideRetry, Failure, retry, RetryHooks, RetrySettings } from './retry.middleware';

describe('retry step', () => {
  const policy: FailurePolicy = { retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 100 } };
  const settings: RetrySettings = { ceilingMs: 60_000, inlineWaitMaxMs: 1_000 };
  const down = (retryAfterMs?: number) =>
    new DependencyUnavailableError('email-provider', 'answered 503', retryAfterMs);

  function hooks({ proceed = true, durableFirstFailure }: { proceed?: boolean; durableFirstFailure?: Date } = {}) {
    const failures: Array<{ attempts: number; willRetry: boolean }> = [];
    const recorded: number[] = [];
    const recovered: string[] = [];
    const waits: number[] = [];
    const value: RetryHooks = {
      recorded: async (failure) => {
        recorded.push(failure.attempts);
        return durableFirstFailure ? { ...failure, firstFailureAt: durableFirstFailure } : failure;
      },
      decided: (failure, decision) => void failures.push({ attempts: failure.attempts, willRetry: decision.retry }),
      recovered: (dependency) => void recovered.push(dependency),
      wait: async (ms) => {
        waits.push(ms);
        return proceed;
      },
    };
    return { value, failures, recorded, recovered, waits };
  }

  const failure = (overrides: Partial<Failure> = {}): Failure => {
    const now = new Date();
    return {
      error: new Error('flaky'),
      errorClass: 'transient',
      attempts: 1,
      firstFailureAt: now,
      lastFailureAt: now,
      ...overrides,
    };
  };

  it('retries an unknown failure inside the batch and reports the attempt that succeeded', async () => {
    const { value, failures, recorded, waits } = hooks();
    let calls = 0;
    const outcome = await retry(
      async () => (++calls < 3 ? Promise.reject(new Error('flaky')) : 'ok'),
      policy,
      settings,
      value,
    );
    expect(outcome).toEqual({ kind: 'done', value: 'ok', attempts: 3 });
    expect(failures).toEqual([
      { attempts: 1, willRetry: true },
      { attempts: 2, willRetry: true },
    ]);
    expect(recorded).toEqual([1, 2]);
    expect(waits).toHaveLength(2);
  });

  it('gives up on an unknown failure after the last attempt, with the first and last failure times', async () => {
    const { value } = hooks();
    const outcome = await retry(() => Promise.reject(new Error('down')), policy, settings, value);
    expect(outcome.kind).toBe('gave-up');
    const last = (outcome as { failure: Failure }).failure;
    expect(last.attempts).toBe(3);
    expect(last.lastFailureAt.getTime()).toBeGreaterThanOrEqual(last.firstFailureAt.getTime());
  });

  it('neither retries nor records poison', async () => {
    const { value, failures, recorded } = hooks();
    const outcome = await retry(() => Promise.reject(new PermanentError('unknown order')), policy, settings, value);
    expect(outcome).toMatchObject({ kind: 'gave-up', failure: { attempts: 1, errorClass: 'poison' } });
    expect(failures).toEqual([{ attempts: 1, willRetry: false }]);
    expect(recorded).toEqual([]);
  });

  it('keeps retrying while our database is unavailable, beyond the attempt limit', async () => {
    const { value } = hooks();
    let calls = 0;
    const dbDown = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const outcome = await retry(async () => (++calls < 6 ? Promise.reject(dbDown) : 'ok'), policy, settings, value);
    expect(outcome).toEqual({ kind: 'done', value: 'ok', attempts: 6 });
  });

  it('keeps retrying a transaction that lost a deadlock, beyond the attempt limit (the chaos run dead-lettered one)', async () => {
    const { value } = hooks();
    let calls = 0;
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const outcome = await retry(async () => (++calls < 6 ? Promise.reject(deadlock) : 'ok'), policy, settings, value);
    expect(outcome).toEqual({ kind: 'done', value: 'ok', attempts: 6 });
  });

  it('spends the attempt budget on unclassified failures only, not on attempts made while our database was down', async () => {
    const { value } = hooks();
    let calls = 0;
    const dbDown = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    // Five attempts against a down database, then two statement timeouts (the chaos run dead-lettered such an event
    // on its first timeout, its budget spent by the outage), then success.
    const outcome = await retry(
      async () => (++calls <= 5 ? Promise.reject(dbDown) : calls <= 7 ? Promise.reject(timeout) : 'ok'),
      policy,
      settings,
      value,
    );
    expect(outcome).toEqual({ kind: 'done', value: 'ok', attempts: 8 });
  });

  it('counts a failure from the batch transaction as the first attempt', async () => {
    const { value, failures } = hooks();
    const attempts: number[] = [];
    const outcome = await retry(async (n) => void attempts.push(n), policy, settings, value, {
      failure: failure(),
      waited: false,
    });
    expect(outcome).toMatchObject({ kind: 'done', attempts: 2 });
    expect(attempts).toEqual([2]);
    expect(failures).toEqual([{ attempts: 1, willRetry: true }]);
  });

  it('stops without another attempt when the consumer is stopping', async () => {
    const { value } = hooks({ proceed: false });
    let calls = 0;
    const outcome = await retry(
      async () => {
        calls++;
        throw new Error('flaky');
      },
      policy,
      settings,
      value,
    );
    expect(outcome.kind).toBe('interrupted');
    expect(calls).toBe(1);
  });

  it('never waits inside the batch for a down dependency, and not before its Retry-After', async () => {
    const { value, waits } = hooks();
    const before = Date.now();
    const outcome = await retry(() => Promise.reject(down(5_000)), policy, settings, value);
    expect(outcome).toMatchObject({
      kind: 'waiting',
      failure: { errorClass: 'dependency', dependency: 'email-provider', retryAfterMs: 5_000, attempts: 1 },
    });
    const {
      retryAt,
      deadlineAt,
      failure: first,
    } = outcome as { retryAt: number; deadlineAt: number; failure: Failure };
    expect(retryAt).toBeGreaterThanOrEqual(before + 5_000);
    expect(deadlineAt).toBe(first.firstFailureAt.getTime() + settings.ceilingMs);
    expect(waits).toEqual([]);
  });

  it('retries a down dependency far beyond the attempt limit, until the ceiling after its first failure', () => {
    const now = Date.now();
    const waiting = failure({ errorClass: 'dependency', dependency: 'email-provider', attempts: 40 });
    expect(decideRetry({ ...waiting, firstFailureAt: new Date(now - 59_000) }, policy, settings, now)).toMatchObject({
      retry: true,
      inline: false,
    });
    const decision = decideRetry({ ...waiting, firstFailureAt: new Date(now - 59_990) }, policy, settings, now);
    expect(decision).toMatchObject({ retry: true });
    expect((decision as { delayMs: number }).delayMs).toBeLessThanOrEqual(10);
    expect(decideRetry({ ...waiting, firstFailureAt: new Date(now - 60_000) }, policy, settings, now)).toEqual({
      retry: false,
    });
  });

  it('counts the ceiling from the first failure Postgres recorded, also in another process', async () => {
    const { value } = hooks({ durableFirstFailure: new Date(Date.now() - 61_000) });
    const outcome = await retry(() => Promise.reject(down()), policy, settings, value);
    expect(outcome).toMatchObject({ kind: 'gave-up', failure: { dependency: 'email-provider' } });
  });

  it('tries a message whose wait is over at once, and reports its dependency answering', async () => {
    const { value, failures, recovered } = hooks();
    const waited = failure({ errorClass: 'dependency', dependency: 'email-provider', attempts: 4 });
    const attempts: number[] = [];
    const outcome = await retry(async (n) => void attempts.push(n), policy, settings, value, {
      failure: waited,
      waited: true,
    });
    expect(outcome).toMatchObject({ kind: 'done', attempts: 5 });
    expect(attempts).toEqual([5]);
    expect(failures).toEqual([]);
    expect(recovered).toEqual(['email-provider']);
  });
});
