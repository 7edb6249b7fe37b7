/** Field names whose values are never kept: credentials, signatures, card data. */
const SECRET_FIELD =
  /secret|token|passw|signature|authori[sz]ation|credential|api[-_]?key|private[-_]?key|card|cvc|cvv|iban/i;
const REDACTED = '[redacted]';
/** Bodies larger than this are not parsed to find fields: only their start is kept, redacted as text. */
const MAX_PARSED_BYTES = 64 * 1024;

/**
 * The start of a rejected request's body, at most `maxChars` characters, for an operator: a JSON body with the value
 * of every secret-looking field (at any depth) replaced by `[redacted]`; any other body (or JSON too large to parse)
 * as text, with `name=value` and `"name": value` pairs of such fields redacted. Never more than the body held.
 */
export function redactedBodyPrefix(body: Buffer | undefined, maxChars: number): string {
  if (!body || body.length === 0) return '';
  if (body.length <= MAX_PARSED_BYTES) {
    const text = body.toString('utf8');
    try {
      return cut(JSON.stringify(redactValue(JSON.parse(text))), maxChars);
    } catch {
      return cut(redactText(text), maxChars);
    }
  }
  // Redact before cutting, so that a pair split by the cut is still caught; a little beyond the prefix is enough.
  return cut(redactText(body.subarray(0, maxChars * 4 + 256).toString('utf8')), maxChars);
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, SECRET_FIELD.test(key) ? REDACTED : redactValue(inner)]),
  );
}

const SECRET_PAIR = new RegExp(
  `((?:"|\\b)[\\w.-]*(?:${SECRET_FIELD.source})[\\w.-]*"?\\s*[:=]\\s*)("(?:[^"\\\\]|\\\\.)*"?|[^\\s&,;}\\]]+)`,
  'gi',
);

function redactText(text: string): string {
  return text.replace(SECRET_PAIR, (_pair, name: string) => `${name}${REDACTED}`);
}

function cut(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
