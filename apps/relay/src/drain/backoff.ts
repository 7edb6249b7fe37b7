/**
 * Exponential backoff with equal jitter: a random wait between half and all of min(max, base · 2^(attempt-1)), so
 * that relays that failed together do not retry together, while each still waits at least half the ceiling (unlike
 * the consumers' full jitter, which may retry at once).
 */
export function backoffDelay(attempt: number, { baseMs = 200, maxMs = 10_000, random = Math.random } = {}): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
