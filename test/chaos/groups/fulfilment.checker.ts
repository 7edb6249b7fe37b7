import {
  SHOP_ORDER_CANCELLED_V1,
  SHOP_ORDER_FULFILLED_V1,
  SHOP_ORDER_FULFILMENT_CANCELLED_V1,
  SHOP_ORDER_FULFILMENT_FAILED_V1,
  SHOP_ORDER_PLACED_V1,
} from '@app/contracts';
import { AcceptedEvent } from '../order-events';
import { readChaosConfig } from '../chaos-config';
import { ChaosGroup, CheckContext, countRow, InvariantRow, noneRow } from './chaos-group';

const PAYMENTS = 'payment-provider';
const CARRIER = 'shipping-provider';
const PARTICIPANTS = ['inventory', 'payments', 'shipping'];
/**
 * Units of each SKU at its first reservation: about 85 % of what the run's orders ask for (an order has ~2.8 events
 * and asks for ~1 unit of each of the 5 SKUs on average), so that the last orders find some SKUs sold out.
 */
const INITIAL_STOCK = (() => {
  const { seconds, rate } = readChaosConfig();
  return Math.max(10, Math.round((0.85 * seconds * rate) / 2.8));
})();
/** Shares of charges declined and shipments rejected: sagas that compensate after a step that had an effect. */
const DECLINE_RATE = 0.04;
const REJECT_RATE = 0.04;

interface Saga {
  id: string;
  correlation_id: string;
  start_event_id: string;
  state: string;
}

/** The outcome event a saga publishes as it ends, by the state it ends in. */
const OUTCOMES: Record<string, string> = {
  completed: SHOP_ORDER_FULFILLED_V1,
  compensated: SHOP_ORDER_FULFILMENT_FAILED_V1,
  cancelled: SHOP_ORDER_FULFILMENT_CANCELLED_V1,
};

/**
 * The order fulfilment saga (coordinator `fulfilment`; participants `inventory`, `payments`, `shipping`): every order
 * placed starts one saga, which ends `completed`, `compensated` or (when the shop cancelled the order while it ran)
 * `cancelled`, never `failed` or half-way. What counts is what the providers did: one charge per order at most,
 * refunded exactly when the saga compensated or was cancelled after it; one shipment for each completed order,
 * cancelled when a later step failed or the order was cancelled; stock taken for completed orders only, to the unit;
 * one outcome event per saga. The development providers decline a share of charges and reject a share of shipments,
 * stock runs out for some SKUs and the shop cancels some orders mid-saga, so every compensation path runs under the
 * faults.
 */
export const FULFILMENT_CHAOS: ChaosGroup = {
  group: 'fulfilment',
  participants: PARTICIPANTS,
  providers: [
    {
      name: PAYMENTS,
      entry: 'apps/consumers/src/payments/dev-provider/main.js',
      env: (port) => ({ PAYMENT_PROVIDER_PORT: String(port), PAYMENT_PROVIDER_LATENCY_MS: '5' }),
      readyLine: 'payment provider listening on',
    },
    {
      name: CARRIER,
      entry: 'apps/consumers/src/shipping/dev-provider/main.js',
      env: (port) => ({ SHIPPING_PROVIDER_PORT: String(port), SHIPPING_PROVIDER_LATENCY_MS: '5' }),
      readyLine: 'shipping provider listening on',
    },
  ],
  consumerEnv: (urls) => ({
    PAYMENT_PROVIDER_URL: urls[PAYMENTS],
    SHIPPING_PROVIDER_URL: urls[CARRIER],
    INVENTORY_INITIAL_STOCK: String(INITIAL_STOCK),
  }),
  async prepare(ctx) {
    await behaviour(ctx.providerUrls[PAYMENTS], { declineRate: DECLINE_RATE });
    await behaviour(ctx.providerUrls[CARRIER], { rejectRate: REJECT_RATE });
  },
  handles: (event) => event.type === SHOP_ORDER_PLACED_V1 || event.type === SHOP_ORDER_CANCELLED_V1,
  async inHand(ctx) {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sagas WHERE state IN ('running', 'compensating')`,
    );
    return rows[0].n;
  },
  async check(ctx) {
    const sagas = (await ctx.db.query<Saga>(`SELECT id, correlation_id, start_event_id, state FROM sagas`)).rows;
    const byOrder = group(sagas, (saga) => saga.correlation_id);
    const orders = placedOrders(ctx);
    const placed = new Map(orders.map((event) => [event.orderId, event]));
    const notOnce = orders
      .filter((event) => byOrder.get(event.orderId)?.filter((saga) => saga.start_event_id === event.id).length !== 1)
      .map((event) => `${event.orderId}: ${byOrder.get(event.orderId)?.length ?? 0} sagas`);
    const stray = sagas.filter((saga) => !placed.has(saga.correlation_id)).map((saga) => saga.correlation_id);
    const unfinished = sagas
      .filter((saga) => !(saga.state in OUTCOMES))
      .map((saga) => `${saga.correlation_id}: ${saga.state}`);
    const completed = new Set(sagas.filter((saga) => saga.state === 'completed').map((saga) => saga.correlation_id));
    const count = (state: string) => sagas.filter((saga) => saga.state === state).length;
    const cancelledOrders = new Set(
      ctx.expected.filter((event) => event.type === SHOP_ORDER_CANCELLED_V1).map((event) => event.orderId),
    );
    const cancelledUnasked = sagas
      .filter((saga) => saga.state === 'cancelled' && !cancelledOrders.has(saga.correlation_id))
      .map((saga) => saga.correlation_id);
    return [
      noneRow(`fulfilment: one saga per order placed (${orders.length})`, 'orders without one saga', notOnce),
      noneRow('fulfilment: no saga for anything else', 'stray sagas', stray),
      noneRow(
        `fulfilment: every saga ended completed (${completed.size}), compensated (${count('compensated')}) or cancelled (${count('cancelled')})`,
        'sagas failed or unfinished',
        unfinished,
      ),
      noneRow(
        `fulfilment: a saga cancelled only when the shop cancelled its order (${cancelledOrders.size} cancelled)`,
        'sagas cancelled otherwise',
        cancelledUnasked,
      ),
      ...(await paymentRows(ctx, completed)),
      ...(await shipmentRows(ctx, completed)),
      ...(await stockRows(ctx, sagas)),
      ...(await outcomeRows(ctx, sagas)),
      await participantLetters(ctx),
    ];
  },
};

/** The orders the run placed that fulfilment must have started a saga for (its expected `placed` events). */
function placedOrders(ctx: CheckContext): AcceptedEvent[] {
  return ctx.expected.filter((event) => event.type === SHOP_ORDER_PLACED_V1);
}

/** The payment provider's charges and refunds, per order (the charge's `reference`). */
async function paymentRows(ctx: CheckContext, completed: Set<string>): Promise<InvariantRow[]> {
  const charges = await list<{ id: string; reference: string }>(ctx.providerUrls[PAYMENTS], '/v1/charges');
  const refunds = await list<{ chargeId: string }>(ctx.providerUrls[PAYMENTS], '/v1/refunds');
  const refundsOf = group(refunds, (refund) => refund.chargeId);
  const chargesOf = group(charges, (charge) => charge.reference);
  const wrong: string[] = [];
  for (const event of placedOrders(ctx)) {
    const orderCharges = chargesOf.get(event.orderId) ?? [];
    const refunded = orderCharges.map((charge) => refundsOf.get(charge.id)?.length ?? 0);
    const ok = completed.has(event.orderId)
      ? orderCharges.length === 1 && refunded[0] === 0
      : orderCharges.length === 0 || (orderCharges.length === 1 && refunded[0] === 1);
    if (!ok) wrong.push(`${event.orderId}: ${orderCharges.length} charges, refunds ${refunded.join('/') || '-'}`);
  }
  return [
    noneRow(
      `payments: provider-side, one charge per completed order, refunded once when compensated or cancelled (${charges.length} charges, ${refunds.length} refunds)`,
      'orders charged wrongly',
      wrong,
    ),
    noneRow(
      'payments: no charge for anything else',
      'stray charges',
      charges.filter((charge) => !hasOrder(ctx, charge.reference)).map((charge) => charge.reference),
    ),
  ];
}

/** The carrier's shipments, per order (the shipment's `reference`). */
async function shipmentRows(ctx: CheckContext, completed: Set<string>): Promise<InvariantRow[]> {
  const shipments = await list<{ reference: string; cancelled: boolean }>(ctx.providerUrls[CARRIER], '/v1/shipments');
  const byOrder = group(shipments, (shipment) => shipment.reference);
  const wrong: string[] = [];
  for (const event of placedOrders(ctx)) {
    const orderShipments = byOrder.get(event.orderId) ?? [];
    const ok = completed.has(event.orderId)
      ? orderShipments.length === 1 && !orderShipments[0].cancelled
      : orderShipments.every((shipment) => shipment.cancelled) && orderShipments.length <= 1;
    if (!ok)
      wrong.push(
        `${event.orderId}: ${orderShipments.length} shipments, ${orderShipments.filter((s) => s.cancelled).length} cancelled`,
      );
  }
  return [
    noneRow(
      `shipping: provider-side, one shipment per completed order, none left for a compensated or cancelled one (${shipments.length} shipments)`,
      'orders shipped wrongly',
      wrong,
    ),
    noneRow(
      'shipping: no shipment for anything else',
      'stray shipments',
      shipments.filter((shipment) => !hasOrder(ctx, shipment.reference)).map((shipment) => shipment.reference),
    ),
  ];
}

/** Stock taken for completed orders only, to the unit; never below zero. */
async function stockRows(ctx: CheckContext, sagas: Saga[]): Promise<InvariantRow[]> {
  const reservations = (
    await ctx.db.query<{ saga_id: string; status: string; lines: Array<{ sku: string; quantity: number }> }>(
      `SELECT saga_id, status, lines FROM stock_reservations`,
    )
  ).rows;
  const stateOf = new Map(sagas.map((saga) => [saga.id, saga.state]));
  const mismatched = reservations
    .filter((reservation) => (reservation.status === 'reserved') !== (stateOf.get(reservation.saga_id) === 'completed'))
    .map(
      (reservation) => `saga ${reservation.saga_id}: ${reservation.status}, saga ${stateOf.get(reservation.saga_id)}`,
    );
  const taken = new Map<string, number>();
  for (const reservation of reservations.filter((candidate) => candidate.status === 'reserved'))
    for (const line of reservation.lines) taken.set(line.sku, (taken.get(line.sku) ?? 0) + line.quantity);
  const stock = (await ctx.db.query<{ sku: string; available: number }>(`SELECT sku, available FROM stock`)).rows;
  const unbalanced = stock
    .filter((row) => row.available < 0 || row.available !== INITIAL_STOCK - (taken.get(row.sku) ?? 0))
    .map((row) => `${row.sku}: ${row.available} available, ${INITIAL_STOCK - (taken.get(row.sku) ?? 0)} expected`);
  const refused = reservations.filter((reservation) => reservation.status === 'refused').length;
  return [
    noneRow(
      `inventory: a reservation holds stock exactly when its saga completed (${reservations.length}, ${refused} refused for want of stock)`,
      'reservations out of step',
      mismatched,
    ),
    noneRow(
      `inventory: stock = ${INITIAL_STOCK} − units of completed orders, per SKU (${stock.length} SKUs)`,
      'SKUs off balance',
      unbalanced,
    ),
  ];
}

/**
 * One outcome event per saga on the outbox: fulfilled for a completed one, fulfilment-failed for a compensated one,
 * fulfilment-cancelled for a cancelled one.
 */
async function outcomeRows(ctx: CheckContext, sagas: Saga[]): Promise<InvariantRow[]> {
  const outcomes = (
    await ctx.db.query<{ key: string; type: string; published: boolean }>(
      `SELECT key, headers->>'ce_type' AS type, published_at IS NOT NULL AS published FROM outbox
        WHERE headers->>'ce_type' = ANY($1)`,
      [Object.values(OUTCOMES)],
    )
  ).rows;
  const byOrder = group(outcomes, (outcome) => outcome.key);
  const wrong = sagas
    .filter((saga) => {
      const expected = OUTCOMES[saga.state];
      const events = byOrder.get(saga.correlation_id) ?? [];
      return events.length !== 1 || events[0].type !== expected || !events[0].published;
    })
    .map((saga) => `${saga.correlation_id} (${saga.state}): ${JSON.stringify(byOrder.get(saga.correlation_id) ?? [])}`);
  return [noneRow('fulfilment: one outcome event per saga, published', 'sagas without one', wrong)];
}

/** A participant gives up on a command only when something is broken: none of them may have a dead letter. */
async function participantLetters(ctx: CheckContext): Promise<InvariantRow> {
  const { rows } = await ctx.db.query<{ group: string; n: number }>(
    `SELECT "group", count(*)::int AS n FROM dead_letters WHERE "group" = ANY($1) GROUP BY "group"`,
    [PARTICIPANTS],
  );
  return countRow(
    `${PARTICIPANTS.join(', ')}: dead letters`,
    0,
    rows.reduce((sum, row) => sum + row.n, 0),
    rows.map((row) => `${row.group}: ${row.n}`),
  );
}

const ordersOf = new WeakMap<CheckContext, Set<string>>();

function hasOrder(ctx: CheckContext, orderId: string): boolean {
  if (!ordersOf.has(ctx)) ordersOf.set(ctx, new Set(placedOrders(ctx).map((event) => event.orderId)));
  return ordersOf.get(ctx)!.has(orderId);
}

function group<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

async function list<T>(baseUrl: string, path: string): Promise<T[]> {
  const response = await fetch(`${baseUrl}${path}`);
  return ((await response.json()) as { data: T[] }).data;
}

async function behaviour(baseUrl: string, change: object): Promise<void> {
  const response = await fetch(`${baseUrl}/_dev/behaviour`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(change),
  });
  if (!response.ok) throw new Error(`${baseUrl}/_dev/behaviour answered ${response.status}`);
}
