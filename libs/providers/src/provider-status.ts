/** Statuses below 500 that a retry with the same idempotency key may still turn into a success. */
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429]);

export type StatusClass = 'ok' | 'retryable' | 'rejected';

/** 2xx ok; 5xx and the retryable 4xx retryable (the request may work later); every other status rejected. */
export function classifyStatus(status: number): StatusClass {
  if (status >= 200 && status < 300) return 'ok';
  if (status >= 500 || RETRYABLE_STATUSES.has(status)) return 'retryable';
  return 'rejected';
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
