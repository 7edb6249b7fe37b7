import { DEAD_LETTER_STATUSES, DeadLetterStatus } from './dead-letter-states';

/** Which dead letters an operation is about. Every field narrows; an empty filter means all. */
export interface DeadLetterFilter {
  ids?: string[];
  group?: string;
  /** Any of these groups: the groups an operator's token is limited to (never parsed from input). */
  groups?: string[];
  type?: string;
  errorClass?: string;
  key?: string;
  eventId?: string;
  /** dead_at >= since */
  since?: Date;
  /** dead_at < until */
  until?: Date;
  status?: DeadLetterStatus;
}

export class InvalidFilterError extends Error {
  override name = 'InvalidFilterError';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filter as plain strings (query string, CLI flags) → a checked DeadLetterFilter; throws InvalidFilterError. */
export function parseFilter(input: Record<string, string | string[] | undefined>): DeadLetterFilter {
  const filter: DeadLetterFilter = {};
  const text = (name: string): string | undefined => {
    const value = input[name];
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined || first === '' ? undefined : first;
  };
  const ids = input.ids ?? input.id;
  if (ids !== undefined) {
    filter.ids = (Array.isArray(ids) ? ids : [ids])
      .flatMap((value) => value.split(','))
      .map((id) => id.trim())
      .filter(Boolean);
    const bad = filter.ids.find((id) => !UUID.test(id));
    if (bad) throw new InvalidFilterError(`"${bad}" is not a dead-letter id (a UUID)`);
  }
  for (const name of ['group', 'type', 'errorClass', 'key', 'eventId'] as const) {
    const value = text(name);
    if (value !== undefined) filter[name] = value;
  }
  for (const name of ['since', 'until'] as const) {
    const value = text(name);
    if (value === undefined) continue;
    const parsed = parseTime(value);
    if (!parsed)
      throw new InvalidFilterError(`${name} "${value}" is neither an ISO time nor a duration like 30m, 6h or 2d`);
    filter[name] = parsed;
  }
  const status = text('status');
  if (status !== undefined) {
    if (!(DEAD_LETTER_STATUSES as readonly string[]).includes(status))
      throw new InvalidFilterError(`status must be one of ${DEAD_LETTER_STATUSES.join(', ')}`);
    filter.status = status as DeadLetterStatus;
  }
  return filter;
}

/** An ISO time, or a duration back from now: `90s`, `30m`, `6h`, `2d`. */
export function parseTime(value: string, now = Date.now()): Date | undefined {
  const duration = /^(\d+)([smhd])$/.exec(value);
  if (duration)
    return new Date(
      now - Number(duration[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[duration[2] as 's' | 'm' | 'h' | 'd'] * 1000,
    );
  const parsed = new Date(value);
  return /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(parsed.getTime()) ? parsed : undefined;
}

/** The filter as a SQL condition on `dead_letters` (alias-free) with its parameters, numbered from `firstParam`. */
export function filterSql(
  filter: DeadLetterFilter & { notParked?: boolean },
  firstParam = 1,
): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (condition: (param: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(condition(`$${firstParam + params.length - 1}`));
  };
  if (filter.ids) add((p) => `id = ANY(${p}::uuid[])`, filter.ids);
  if (filter.group !== undefined) add((p) => `"group" = ${p}`, filter.group);
  if (filter.groups) add((p) => `"group" = ANY(${p}::text[])`, filter.groups);
  if (filter.type !== undefined) add((p) => `type = ${p}`, filter.type);
  if (filter.errorClass !== undefined) add((p) => `error_class = ${p}`, filter.errorClass);
  if (filter.key !== undefined) add((p) => `key = ${p}`, filter.key);
  if (filter.eventId !== undefined) add((p) => `event_id = ${p}`, filter.eventId);
  if (filter.since) add((p) => `dead_at >= ${p}`, filter.since);
  if (filter.until) add((p) => `dead_at < ${p}`, filter.until);
  if (filter.status) add((p) => `status = ${p}`, filter.status);
  if (filter.notParked) conditions.push(`status <> 'parked'`);
  return { where: conditions.length ? conditions.join(' AND ') : 'TRUE', params };
}

/** The filter as the audit table records it (JSON, times as ISO strings). */
export function describeFilter(filter: DeadLetterFilter): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filter).map(([name, value]) => [name, value instanceof Date ? value.toISOString() : value]),
  );
}
