import { IdempotencyStore } from './idempotency-store';

describe('development providers: idempotency keys', () => {
  it('does the work once per key, replays the first answer, and refuses the key with another body', () => {
    const store = new IdempotencyStore();
    expect(store.begin('k1', '{"a":1}')).toEqual({ kind: 'new' });
    expect(store.begin('k1', '{"a":1}')).toEqual({ kind: 'in-progress' });
    store.complete('k1', '{"id":"x"}');
    expect(store.begin('k1', '{"a":1}')).toEqual({ kind: 'replay', body: '{"id":"x"}' });
    expect(store.begin('k1', '{"a":2}')).toEqual({ kind: 'conflict' });
    expect(store.requestsPerKey()).toEqual({ k1: 4 });
  });

  it('frees a key whose first request failed', () => {
    const store = new IdempotencyStore();
    store.begin('k2', 'body');
    store.release('k2');
    expect(store.begin('k2', 'body')).toEqual({ kind: 'new' });
  });
});
