import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerOf, unauthorized } from '@app/http';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The `scheme` an event received through `POST /events` is recorded with (a producer token authenticated it). */
export const CLOUDEVENTS_SCHEME = 'cloudevents';

/** Bearer tokens of internal producers, compared in constant time (as digests, so length leaks nothing). */
export class ProducerTokens {
  private readonly digests: Buffer[];

  constructor(tokens: string[]) {
    this.digests = tokens.map(digest);
  }

  check(authorization: string | undefined): void {
    if (this.digests.length === 0) throw unauthorized('POST /events is disabled: no PRODUCER_TOKENS are configured');
    const bearer = bearerOf(authorization);
    if (!bearer) throw unauthorized('missing bearer token (Authorization: Bearer <token>)');
    if (!this.matches(bearer)) throw unauthorized('the bearer token is not valid');
  }

  /** Whether `token` is one of the producers' (every one is compared, so the time says nothing of which). */
  matches(token: string): boolean {
    const given = digest(token);
    let ok = false;
    for (const known of this.digests) ok = timingSafeEqual(known, given) || ok;
    return ok;
  }
}
