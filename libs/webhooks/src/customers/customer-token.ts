import { newBearerToken, tokenHash } from '@app/access';

const PREFIX = 'hrc_';
const SHAPE = /^hrc_[A-Za-z0-9_-]{43}$/;

/** How long a customer's tokens live: an API token 90 days unless told (a year at most), a portal session an hour. */
export const CUSTOMER_TOKEN_TTL = {
  apiDefaultMs: 90 * 86_400_000,
  apiMaxMs: 366 * 86_400_000,
  sessionMs: 3_600_000,
  linkDefaultMinutes: 15,
  linkMaxMinutes: 60,
} as const;

/** A new customer token (an API token, a portal link or a session): `hrc_` and 32 random bytes. */
export function newCustomerToken(): string {
  return newBearerToken(PREFIX);
}

/** What is stored of a token: its sha256, hex. */
export function customerTokenHash(token: string): string {
  return tokenHash(token);
}

export function isCustomerTokenShaped(token: string): boolean {
  return SHAPE.test(token);
}
