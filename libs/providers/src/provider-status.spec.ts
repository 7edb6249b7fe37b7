import { classifyStatus, parseRetryAfter } from './provider-status';

describe('provider status classification', () => {
  it('calls 2xx ok, 5xx and the retryable 4xx retryable, and every other status rejected', () => {
    expect([200, 201, 204].map(classifyStatus)).toEqual(['ok', 'ok', 'ok']);
    expect([500, 502, 503, 408, 409, 425, 429].map(classifyStatus)).toEqual(Array(7).fill('retryable'));
    expect([400, 401, 403, 404, 410, 422, 302].map(classifyStatus)).toEqual(Array(7).fill('rejected'));
  });

  it('reads Retry-After as seconds or as an HTTP date, and ignores what it cannot read', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
