import { TOPICS } from './topics';

/**
 * Where events are published, by exact type or by type prefix (ending in `.`); the first match wins. The ingress
 * routes CloudEvents from `POST /events` with it, and the event catalogue lists each type on its topic. A type that
 * matches none goes to `hookrail.inbound` from the ingress; the catalogue then places it on the topics of the groups
 * that handle it.
 */
export const EVENT_TOPIC_ROUTES: ReadonlyArray<{ types: string; topic: string }> = [
  { types: 'shop.order.', topic: TOPICS.shopOrders },
];

/** The topic a route declares for `type`, if any. */
export function declaredTopicOf(type: string): string | undefined {
  return EVENT_TOPIC_ROUTES.find(({ types }) => (types.endsWith('.') ? type.startsWith(types) : type === types))?.topic;
}
