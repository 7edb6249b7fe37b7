/** Topics that carry events from the outbox to the consumer groups. */
export const TOPICS = {
  shopOrders: 'shop.orders',
  /** CloudEvents posted to `POST /events` whose type has no declared route (EVENT_TOPIC_ROUTES): kept, never dropped. */
  inbound: 'hookrail.inbound',
  /** Saga commands to the inventory participant (reserve, release), keyed by the order id. */
  inventoryCommands: 'inventory.commands',
  /** Saga commands to the payments participant (charge, refund), keyed by the order id. */
  paymentsCommands: 'payments.commands',
  /** Saga commands to the shipping participant (create, cancel), keyed by the order id. */
  shippingCommands: 'shipping.commands',
  /** The participants' replies to the fulfilment saga's commands, keyed by the order id. */
  fulfilmentReplies: 'fulfilment.replies',
} as const;

/** The consumer services shipped with hookrail; each is one Kafka consumer group. */
export const CONSUMER_GROUPS = [
  'ledger',
  'notifier',
  'agent',
  'analytics',
  'webhooks',
  /** The order fulfilment saga's coordinator. */
  'fulfilment',
  /** The saga's participants. */
  'inventory',
  'payments',
  'shipping',
] as const;
export type ConsumerGroupName = (typeof CONSUMER_GROUPS)[number];

/**
 * The dead-letter store's own consumer group (libs/dead-letters), namespaced like every group: it reads every group's
 * `<group>.dlt`.
 */
export const DEAD_LETTER_STORE_GROUP = 'hookrail-dlq-store';

/** Dead letters of group `g` go to `g.dlt`. */
export const dltTopic = (group: string): string => `${group}.dlt`;
/** Replays for group `g` arrive on `g.replay`, which only `g` consumes. */
export const replayTopic = (group: string): string => `${group}.replay`;

/** Every topic the project needs, as `topics:create` makes them. */
export function projectTopics(groups: readonly string[] = CONSUMER_GROUPS): string[] {
  return [...Object.values(TOPICS), ...groups.flatMap((group) => [dltTopic(group), replayTopic(group)])];
}
