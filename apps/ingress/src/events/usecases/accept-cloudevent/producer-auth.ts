import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '@app/http';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Bearer tokens of internal producers, compared in constant time (as digests, so length leaks nothing). */
export class ProducerTokens {
  private readonly digests: Buffer[];

  constructor(tokens: string[]) {
    this.digests = tokens.map(digest);
  }

  check(authorization: string | undefined): void {
    if (this.digests.length === 0) throw unauthorized('POST /events is disabled: no PRODUCER_TOKENS are configured');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw unauthorized('missing bearer token (Authorization: Bearer <token>)');
    const given = digest(match[1]);
    let ok = false;
    for (const known of this.digests) ok = timingSafeEqual(known, given) || ok;
    if (!ok) throw unauthorized('the bearer token is not valid');
  }
}
