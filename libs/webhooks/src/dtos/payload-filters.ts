import { PayloadFilter } from '../endpoints/webhook-endpoints.repository';
import { WebhookInputError } from '../webhook-errors';

/**
 * An endpoint's `payloadFilters` as given: each `{path, equals}`, `path` a JSON pointer (`/region`), `equals` a string,
 * number, boolean or null. A small local check until the routing's `parsePayloadFilters` is in libs/webhooks; then
 * this is replaced by it.
 */
export function checkedPayloadFilters(value: unknown[] | null | undefined): PayloadFilter[] | null | undefined {
  if (value === undefined || value === null) return value;
  return value.map((filter, index) => {
    const at = `payloadFilters[${index}]`;
    if (typeof filter !== 'object' || filter === null || Array.isArray(filter))
      throw new WebhookInputError(`${at} must be an object {path, equals}`);
    const { path, equals, ...rest } = filter as Record<string, unknown>;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) throw new WebhookInputError(`${at} has an unknown field "${unknown}"`);
    if (typeof path !== 'string' || !path.startsWith('/') || path.length > 500)
      throw new WebhookInputError(`${at}.path must be a JSON pointer starting with "/" (at most 500 characters)`);
    if (!['string', 'number', 'boolean'].includes(typeof equals) && equals !== null)
      throw new WebhookInputError(`${at}.equals must be a string, a number, a boolean or null`);
    return { path, equals: equals as PayloadFilter['equals'] };
  });
}
