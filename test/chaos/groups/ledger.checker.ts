import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { ChaosGroup, noneRow, orderRow } from './chaos-group';

const KEPT = 'EUR,USD,GBP';

/**
 * The ledger books one entry per order event in the dedupe transaction; its poison is an order in a currency it
 * keeps no account in (LEDGER_CURRENCIES). `ledger_entries.id` shows the order entries were written in.
 */
export const LEDGER_CHAOS: ChaosGroup = {
  group: 'ledger',
  providers: [],
  consumerEnv: () => ({ LEDGER_CURRENCIES: KEPT }),
  handles: (event) => [SHOP_ORDER_PLACED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_CANCELLED_V1].includes(event.type),
  poison: {
    rule: `a currency the ledger keeps no account in (it keeps ${KEPT})`,
    apply: (data) => (data.currency = 'JPY'),
  },
  inHand: async () => 0,
  async check(ctx) {
    const entries = await ctx.db.query<{ id: string; event_id: string }>(`SELECT id, event_id FROM ledger_entries`);
    const byEvent = new Map<string, number[]>();
    for (const row of entries.rows) byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), Number(row.id)]);
    const expectedIds = new Set(ctx.expected.map((event) => event.id));
    const notOnce = ctx.expected
      .filter((event) => byEvent.get(event.id)?.length !== 1)
      .map((event) => `${event.webhookId}: ${byEvent.get(event.id)?.length ?? 0} entries`);
    const stray = [...byEvent.keys()].filter((eventId) => !expectedIds.has(eventId));
    return [
      noneRow(`ledger: one entry per expected event (${ctx.expected.length})`, 'events not booked once', notOnce),
      noneRow('ledger: no entry for poison or unknown events', 'stray entries', stray),
      orderRow(
        'ledger: entries of an order in sequence (ledger_entries.id)',
        ctx.expected,
        (event) => byEvent.get(event.id)?.[0],
        true,
      ),
    ];
  },
};
