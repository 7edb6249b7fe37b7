import { Identity, Need, visibleGroups } from '@app/access';
import { DeadLetterFilter, InvalidFilterError, parseFilter } from '@app/dead-letters';
import { malformed } from '@app/http';
import { requireGroup } from '../access/access.guard';

const FILTER_FIELDS = ['ids', 'group', 'type', 'errorClass', 'key', 'eventId', 'since', 'until', 'status'] as const;

/** Query string or JSON body → DeadLetterFilter; a bad field is a 400 that names it. */
export function toFilter(input: Record<string, unknown>): DeadLetterFilter {
  const strings: Record<string, string | string[] | undefined> = {};
  for (const field of FILTER_FIELDS) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    if (field === 'ids' && Array.isArray(value) && value.every((id) => typeof id === 'string'))
      strings.ids = value as string[];
    else if (typeof value === 'string') strings[field] = value;
    else throw malformed(`${field} must be ${field === 'ids' ? 'a list of ids' : 'a string'}`);
  }
  try {
    return parseFilter(strings);
  } catch (error) {
    if (error instanceof InvalidFilterError) throw malformed(error.message);
    throw error;
  }
}

/**
 * The filter within what the token may `need`: a group it names must be one of the token's (else 403 naming it); with
 * none named, a token limited to groups matches its groups' dead letters only.
 */
export function withinScope(filter: DeadLetterFilter, identity: Identity, need: Need): DeadLetterFilter {
  if (filter.group !== undefined) {
    requireGroup(identity, need, filter.group);
    return filter;
  }
  const groups = visibleGroups(identity);
  return groups === null ? filter : { ...filter, groups };
}

export function optionalPositiveInt(input: Record<string, unknown>, name: string, max: number): number | undefined {
  const value = input[name];
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = typeof value === 'string' ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isInteger(parsed) || parsed < 1 || parsed > max)
    throw malformed(`${name} must be an integer from 1 to ${max}`);
  return parsed;
}

export function optionalBoolean(input: Record<string, unknown>, name: string): boolean {
  const value = input[name];
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw malformed(`${name} must be true or false`);
}
