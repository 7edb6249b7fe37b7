import { WebhookInputError } from './webhook-errors';

/** One condition on an event's data: the JSON value at `path` (a JSON Pointer, RFC 6901) equals `equals`. */
export interface PayloadFilter {
  path: string;
  equals: string | number | boolean | null;
}

export const MAX_PAYLOAD_FILTERS = 10;
const MAX_PATH_LENGTH = 200;
const MAX_EQUALS_LENGTH = 1000;
/** `/`-separated steps, a `~` only as `~0` (`~`) or `~1` (`/`). */
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)+$/;
const KEYS = new Set(['path', 'equals']);

/**
 * An endpoint's payload filters as given (a request body's field, a CLI option): null or absent for none, else an
 * array of at most 10 `{path, equals}`, all of which must hold for an event to be delivered. Throws a
 * WebhookInputError naming the first filter and what is wrong with it.
 */
export function parsePayloadFilters(value: unknown): PayloadFilter[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw new WebhookInputError('payloadFilters must be an array of {path, equals}');
  if (value.length > MAX_PAYLOAD_FILTERS)
    throw new WebhookInputError(`payloadFilters may hold at most ${MAX_PAYLOAD_FILTERS} filters`);
  return value.map((filter, index) => parseFilter(filter, `payloadFilters[${index}]`));
}

function parseFilter(filter: unknown, where: string): PayloadFilter {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter))
    throw new WebhookInputError(`${where} must be an object {path, equals}`);
  const unknown = Object.keys(filter).filter((key) => !KEYS.has(key));
  if (unknown.length > 0)
    throw new WebhookInputError(`${where} has unknown keys: ${unknown.join(', ')} (only path and equals)`);
  const { path, equals } = filter as Record<string, unknown>;
  if (typeof path !== 'string' || path.length > MAX_PATH_LENGTH || !JSON_POINTER.test(path))
    throw new WebhookInputError(
      `${where}.path must be a JSON Pointer starting with / (e.g. /shop/region; ~0 for ~, ~1 for /), ` +
        `at most ${MAX_PATH_LENGTH} characters`,
    );
  if (!isFilterValue(equals))
    throw new WebhookInputError(
      `${where}.equals must be a string (at most ${MAX_EQUALS_LENGTH} characters), a finite number, a boolean or null`,
    );
  return { path, equals };
}

function isFilterValue(value: unknown): value is PayloadFilter['equals'] {
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && value.length <= MAX_EQUALS_LENGTH;
}
