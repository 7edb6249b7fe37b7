import { createHash } from 'node:crypto';

type KeyState = { state: 'in-progress'; fingerprint: string } | { state: 'done'; fingerprint: string; body: string };

export type IdempotencyCheck =
  { kind: 'new' } | { kind: 'replay'; body: string } | { kind: 'in-progress' } | { kind: 'conflict' };

/**
 * The provider side of `Idempotency-Key`, as payment APIs do it: the first request with a key does the work, a
 * repeat with the same body gets the first answer, the same key with another body is a conflict (422), and a repeat
 * while the first is still running is told so (409).
 */
export class IdempotencyStore {
  private readonly keys = new Map<string, KeyState>();
  private readonly requests = new Map<string, number>();

  /** Counts the request and says what to do with it; `new` reserves the key until `complete` or `release`. */
  begin(key: string, rawBody: string): IdempotencyCheck {
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const fingerprint = createHash('sha256').update(rawBody).digest('hex');
    const known = this.keys.get(key);
    if (known && known.fingerprint !== fingerprint) return { kind: 'conflict' };
    if (known?.state === 'in-progress') return { kind: 'in-progress' };
    if (known?.state === 'done') return { kind: 'replay', body: known.body };
    this.keys.set(key, { state: 'in-progress', fingerprint });
    return { kind: 'new' };
  }

  /** The work is done: later requests with the key get `body`. */
  complete(key: string, body: string): void {
    const known = this.keys.get(key);
    if (known) this.keys.set(key, { state: 'done', fingerprint: known.fingerprint, body });
  }

  /** The work failed before anything was done: the key may be used again. */
  release(key: string): void {
    this.keys.delete(key);
  }

  /** Requests seen per key. */
  requestsPerKey(): Record<string, number> {
    return Object.fromEntries(this.requests);
  }
}
