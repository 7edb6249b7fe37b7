import { FailurePolicy } from '../handler';
import { PermanentError } from '../errors';
import { Failure, retry, RetryHooks } from './retry.middleware';

describe('retry step', () => {
  const policy: FailurePolicy = { retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 100 } };

  function hooks(proceed = true) {
    const failures: Array<{ attempts: number; willRetry: boolean }> = [];
    const waits: number[] = [];
    const value: RetryHooks = {
      onFailure: async (failure, willRetry) => void failures.push({ attempts: failure.attempts, willRetry }),
      wait: async (ms) => {
        waits.push(ms);
        return proceed;
      },
    };
    return { value, failures, waits };
  }

  it('retries transient failures and reports the attempt that succeeded', async () => {
    const { value, failures, waits } = hooks();
    let calls = 0;
    const outcome = await retry(async () => (++calls < 3 ? Promise.reject(new Error('flaky')) : 'ok'), policy, value);
    expect(outcome).toEqual({ kind: 'done', value: 'ok', attempts: 3 });
    expect(failures).toEqual([
      { attempts: 1, willRetry: true },
      { attempts: 2, willRetry: true },
    ]);
    expect(waits).toHaveLength(2);
  });

  it('gives up after the last attempt with the first and last failure times', async () => {
    const { value } = hooks();
    const outcome = await retry(() => Promise.reject(new Error('down')), policy, value);
    expect(outcome.kind).toBe('gave-up');
    const failure = (outcome as { failure: Failure }).failure;
    expect(failure.attempts).toBe(3);
    expect(failure.lastFailureAt.getTime()).toBeGreaterThanOrEqual(failure.firstFailureAt.getTime());
  });

  it('does not retry poison', async () => {
    const { value, failures } = hooks();
    const outcome = await retry(() => Promise.reject(new PermanentError('unknown order')), policy, value);
    expect(outcome).toMatchObject({ kind: 'gave-up', failure: { attempts: 1, errorClass: 'poison' } });
    expect(failures).toEqual([{ attempts: 1, willRetry: false }]);
  });

  it('keeps retrying while our database is unavailable, beyond the attempt limit', async () => {
    const { value } = hooks();
    let calls = 0;
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const outcome = await retry(async () => (++calls < 6 ? Promise.reject(down) : 'ok'), policy, value);
    expect(outcome).toEqual({ kind: 'done', value: 'ok', attempts: 6 });
  });

  it('counts a failure from the batch transaction as the first attempt', async () => {
    const { value, failures } = hooks();
    const now = new Date();
    const prior: Failure = {
      error: new Error('flaky'),
      errorClass: 'transient',
      attempts: 1,
      firstFailureAt: now,
      lastFailureAt: now,
    };
    const attempts: number[] = [];
    const outcome = await retry(async (n) => void attempts.push(n), policy, value, prior);
    expect(outcome).toMatchObject({ kind: 'done', attempts: 2 });
    expect(attempts).toEqual([2]);
    expect(failures).toEqual([{ attempts: 1, willRetry: true }]);
  });

  it('stops without another attempt when the consumer is stopping', async () => {
    const { value } = hooks(false);
    let calls = 0;
    const outcome = await retry(
      async () => {
        calls++;
        throw new Error('flaky');
      },
      policy,
      value,
    );
    expect(outcome.kind).toBe('interrupted');
    expect(calls).toBe(1);
  });
});
