import { CUSTOMER_ID_PATTERN, eventDataErrors, isKnownEventType } from '@app/contracts';
import { invalidEvent, malformed } from '@app/http';

export const MAX_ID_LENGTH = 300;
const TYPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,299}$/;

/** The JSON body of a request (the bytes, or their UTF-8 text), which must be an object. */
export function parseJsonObject(rawBody: Buffer | string, what = 'body'): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch (error) {
    throw malformed(`the ${what} is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw malformed(`the ${what} must be a JSON object`);
  return parsed as Record<string, unknown>;
}

export function checkIdentifier(name: string, value: string | undefined): string {
  if (!value) throw malformed(`${name} is missing`);
  if (value.length > MAX_ID_LENGTH) throw malformed(`${name} is longer than ${MAX_ID_LENGTH} characters`);
  return value;
}

export function checkType(type: unknown, where: string): string {
  if (typeof type !== 'string' || !TYPE_PATTERN.test(type))
    throw malformed(`the event type (${where}) is missing or not a valid type name`);
  return type;
}

/** Known versioned types must match their DTO; unknown types pass (routed, never lost for lack of a schema). */
export function checkData(type: string, data: unknown): void {
  if (!isKnownEventType(type)) return;
  const fieldErrors = eventDataErrors(type, data);
  if (fieldErrors) throw invalidEvent(type, fieldErrors);
}

/**
 * The customer an event belongs to (the `customerid` attribute), when it names one: a string (or a number, as a
 * string) of 1–200 letters, digits and `._:@/-`. Anything else is a 400 naming `where`.
 */
export function checkCustomerId(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !CUSTOMER_ID_PATTERN.test(text))
    throw malformed(`${where} must be 1-200 characters of letters, digits and ._:@/- (a customer's uid)`);
  return text;
}
