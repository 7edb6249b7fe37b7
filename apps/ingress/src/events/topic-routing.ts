import { TOPICS } from '@app/contracts';

/** Topic of a CloudEvent posted by an internal producer: shop order types to shop.orders, anything else to hookrail.inbound. */
export function topicForType(type: string): string {
  return type.startsWith('shop.order.') ? TOPICS.shopOrders : TOPICS.inbound;
}
