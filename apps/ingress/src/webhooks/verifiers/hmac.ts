import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(secret: string, ...parts: Array<string | Buffer>): string {
  const hmac = createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

export function hmacSha256Base64(key: Buffer, ...parts: Array<string | Buffer>): string {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest('base64');
}

/** Constant-time comparison of two encoded digests (different lengths compare unequal without leaking where). */
export function sameDigest(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
