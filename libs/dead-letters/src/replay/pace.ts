/**
 * How long to wait before sending more, so that `sent` messages since `startedAt` never exceed `ratePerSecond`:
 * the next send may start once `sent / ratePerSecond` seconds have passed.
 */
export function paceDelay(sent: number, ratePerSecond: number, startedAt: number, now: number): number {
  return Math.max(0, startedAt + (sent / ratePerSecond) * 1000 - now);
}

/** Messages per send: a tenth of a second's worth, at least one. */
export function chunkSize(ratePerSecond: number): number {
  return Math.max(1, Math.ceil(ratePerSecond / 10));
}
