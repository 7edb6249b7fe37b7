import { randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** What a Standard Webhooks signing secret looks like, for the messages that refuse one. */
export const WEBHOOK_SECRET_FORMAT =
  'whsec_ followed by random bytes in base64 (letters, digits, "+" and "/", padded with "=" to a multiple of 4 ' +
  'characters), e.g. whsec_ and the output of `openssl rand -base64 32`';

/**
 * Why a Standard Webhooks signing secret cannot be used (the base64 after the optional `whsec_` is what the HMAC key
 * is decoded from), or undefined when it can. The reason never quotes the secret: it says where it goes wrong.
 */
export function webhookSecretProblem(secret: string): string | undefined {
  const key = secretBase64(secret);
  if (key.length === 0) return `there is nothing after ${SECRET_PREFIX}`;
  if (key.includes('…')) return 'it still holds the placeholder "…"';
  const bad = key.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) {
    const char = key.codePointAt(bad)!;
    const what = /\s/.test(String.fromCodePoint(char)) ? 'white space' : `a character that base64 does not use`;
    return `character ${secret.length - key.length + bad + 1} is ${what}`;
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key)) return '"=" may only pad the end, at most twice';
  if (key.length % 4 !== 0)
    return `the base64 after ${SECRET_PREFIX} is ${key.length} characters long, not a multiple of 4 (cut short, or its "=" padding is missing)`;
  return undefined;
}

/** The HMAC key of a Standard Webhooks signing secret: the bytes of its base64 (check it first: `webhookSecretProblem`). */
export function webhookSecretKey(secret: string): Buffer {
  return Buffer.from(secretBase64(secret), 'base64');
}

/** The base64 of a secret, after its optional `whsec_`. */
function secretBase64(secret: string): string {
  return secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
}

/** What the API and the CLI show of a secret after its creation: never the secret itself. */
export interface SecretSummary {
  id: string;
  createdAt: Date;
  /** Null while current; the end of a rotation's overlap otherwise. */
  expiresAt: Date | null;
}
