import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(secret: string, ...parts: Array<string | Buffer>): string {
  const hmac = createHmac('sha256', secret);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
}

/** Constant-time comparison of two hex digests (different lengths compare unequal without leaking where). */
export function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
