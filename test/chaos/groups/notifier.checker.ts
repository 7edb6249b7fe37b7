import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { ChaosGroup, countRow, noneRow, orderRow } from './chaos-group';

const PROVIDER = 'email-provider';

/**
 * The notifier sends one email per order event through the development email provider, with the event id as
 * idempotency key. What counts is what the provider sent: one email per event, per order as many as its events,
 * in the order of the order's events (the provider's list is in sending order).
 */
export const NOTIFIER_CHAOS: ChaosGroup = {
  group: 'notifier',
  providers: [
    {
      name: PROVIDER,
      entry: 'apps/consumers/src/notifier/dev-provider/main.js',
      env: (port) => ({ EMAIL_PROVIDER_PORT: String(port), EMAIL_PROVIDER_LATENCY_MS: '5' }),
      readyLine: 'email provider listening on',
    },
  ],
  consumerEnv: (urls) => ({ EMAIL_PROVIDER_URL: urls[PROVIDER] }),
  handles: (event) => [SHOP_ORDER_PLACED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_CANCELLED_V1].includes(event.type),
  async inHand(ctx) {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications WHERE status <> 'sent'`,
    );
    return rows[0].n;
  },
  async check(ctx) {
    const response = await fetch(`${ctx.providerUrls[PROVIDER]}/v1/emails`);
    const { data: emails } = (await response.json()) as { data: Array<{ idempotencyKey: string }> };
    const sentAt = new Map<string, number[]>();
    emails.forEach((email, index) =>
      sentAt.set(email.idempotencyKey, [...(sentAt.get(email.idempotencyKey) ?? []), index]),
    );
    const expectedIds = new Set(ctx.expected.map((event) => event.id));
    const notOnce = ctx.expected
      .filter((event) => sentAt.get(event.id)?.length !== 1)
      .map((event) => `${event.webhookId}: ${sentAt.get(event.id)?.length ?? 0} emails`);
    const perOrder = new Map<string, { expected: number; sent: number }>();
    for (const event of ctx.expected) {
      const order = perOrder.get(event.orderId) ?? { expected: 0, sent: 0 };
      order.expected += 1;
      order.sent += sentAt.get(event.id)?.length ?? 0;
      perOrder.set(event.orderId, order);
    }
    const ordersWrong = [...perOrder]
      .filter(([, count]) => count.expected !== count.sent)
      .map(([orderId, count]) => `${orderId}: ${count.sent} emails for ${count.expected} events`);
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications WHERE status = 'sent'`,
    );
    return [
      noneRow(
        `notifier: the provider sent one email per expected event (${ctx.expected.length})`,
        'events not sent once',
        notOnce,
      ),
      noneRow(
        `notifier: provider-side email count per order (${perOrder.size} orders)`,
        'orders with another count',
        ordersWrong,
      ),
      noneRow(
        'notifier: no email for anything else',
        'stray emails',
        [...sentAt.keys()].filter((key) => !expectedIds.has(key)),
      ),
      orderRow(
        "notifier: an order's emails in sequence (provider's sending order)",
        ctx.expected,
        (event) => sentAt.get(event.id)?.[0],
        true,
      ),
      countRow('notifier: notifications recorded sent', ctx.expected.length, rows[0].n),
    ];
  },
};
