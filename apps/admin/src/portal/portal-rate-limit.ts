import { Problem } from '@app/http';

const WINDOW_MS = 60_000;
/** Past this many tokens in memory, the windows that ended are dropped. */
const PRUNE_AT = 10_000;

/** PORTAL_RATE_PER_MINUTE: requests each customer token may make per minute. */
export const PORTAL_RATE_PER_MINUTE = Symbol('PORTAL_RATE_PER_MINUTE');

/**
 * Requests per minute per customer token, counted in memory in fixed one-minute windows (per process): past the
 * limit, `429` with Retry-After (the seconds until the window ends).
 */
export class PortalRateLimit {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(private readonly perMinute: number) {}

  take(tokenId: string, now = Date.now()): void {
    if (this.windows.size > PRUNE_AT)
      for (const [key, window] of this.windows) if (now - window.startedAt >= WINDOW_MS) this.windows.delete(key);
    let window = this.windows.get(tokenId);
    if (!window || now - window.startedAt >= WINDOW_MS) {
      window = { startedAt: now, count: 0 };
      this.windows.set(tokenId, window);
    }
    window.count += 1;
    if (window.count > this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000));
      throw new Problem(
        429,
        'rate_limited',
        `this token made more than ${this.perMinute} requests this minute; retry in ${retryAfter} s`,
        { limitPerMinute: this.perMinute },
        { 'retry-after': String(retryAfter) },
      );
    }
  }
}
