import { IncomingHttpHeaders } from 'node:http';

/** Headers that carry a credential or a signature: never stored, whatever their value. */
const SECRET_HEADER = /authorization|cookie|signature|secret|token|api[-_]?key|password|credential/i;
const MAX_HEADERS = 64;
const MAX_VALUE_LENGTH = 512;

/**
 * The request headers an operator may see in an event's trail: everything except credentials and signatures
 * (`Authorization`, `Cookie`, `webhook-signature`, `Stripe-Signature`, `X-Hub-Signature-256`, anything named like a
 * token or key), lower-cased names, values cut at 512 characters, at most 64 headers.
 */
export function receivedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of Object.keys(headers).sort()) {
    if (Object.keys(kept).length >= MAX_HEADERS) break;
    const value = headers[name];
    if (value === undefined || SECRET_HEADER.test(name)) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    kept[name.toLowerCase()] = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text;
  }
  return kept;
}
