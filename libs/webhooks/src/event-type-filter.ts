/**
 * An endpoint's event-type filter: an exact type (`shop.order.placed.v1`), a prefix ending in `.*`
 * (`shop.order.*` matches every type that starts with `shop.order.`), or `*` for every event.
 */
export const EVENT_TYPE_FILTER = /^(?:\*|[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*(?:\.\*)?)$/;

export function isEventTypeFilter(filter: string): boolean {
  return filter.length <= 200 && EVENT_TYPE_FILTER.test(filter);
}

/** Whether an event of `type` goes to an endpoint with these filters; the fan-out's SQL applies the same rule. */
export function matchesEventType(filters: readonly string[], type: string): boolean {
  return filters.some((filter) => (filter.endsWith('*') ? type.startsWith(filter.slice(0, -1)) : type === filter));
}

/**
 * The same rule in SQL, for `INSERT … SELECT … JOIN webhook_endpoints e ON <this>` with the event's type as
 * `typeColumn`: an exact filter, or a filter ending in `*` whose part before the `*` starts the type.
 */
export const eventTypeMatchSql = (filtersColumn: string, typeColumn: string): string =>
  `(${typeColumn} = ANY(${filtersColumn}) OR EXISTS (SELECT 1 FROM unnest(${filtersColumn}) f ` +
  `WHERE right(f, 1) = '*' AND starts_with(${typeColumn}, left(f, -1))))`;
