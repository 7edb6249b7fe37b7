import {
  INVENTORY_RELEASE_STOCK_V1,
  INVENTORY_RESERVE_STOCK_V1,
  INVENTORY_STOCK_RELEASED_V1,
  INVENTORY_STOCK_RESERVATION_FAILED_V1,
  INVENTORY_STOCK_RESERVED_V1,
  OrderFieldsV1,
  PAYMENTS_CARD_CHARGE_FAILED_V1,
  PAYMENTS_CARD_CHARGED_V1,
  PAYMENTS_CHARGE_CARD_V1,
  PAYMENTS_CHARGE_REFUND_FAILED_V1,
  PAYMENTS_CHARGE_REFUNDED_V1,
  PAYMENTS_REFUND_CHARGE_V1,
  SHIPPING_CANCEL_SHIPMENT_V1,
  SHIPPING_CREATE_SHIPMENT_V1,
  SHIPPING_SHIPMENT_CANCELLATION_FAILED_V1,
  SHIPPING_SHIPMENT_CANCELLED_V1,
  SHIPPING_SHIPMENT_CREATED_V1,
  SHIPPING_SHIPMENT_CREATION_FAILED_V1,
  SHOP_ORDER_CANCELLED_V1,
  SHOP_ORDER_FULFILLED_V1,
  SHOP_ORDER_FULFILMENT_CANCELLED_V1,
  SHOP_ORDER_FULFILMENT_FAILED_V1,
  ShopOrderCancelledV1,
  StockLineV1,
  TOPICS,
} from '@app/contracts';
import { CompensationPolicy, CompiledSaga, defineSaga } from '@app/saga';

export const ORDER_FULFILMENT = 'order-fulfilment';

export interface FulfilmentSettings {
  /** Each step's timeout: how long its command may go unanswered before it is sent again. */
  timeoutsMs: { reserveStock: number; chargeCard: number; createShipment: number };
  stepRetries: number;
  compensationPolicy: CompensationPolicy;
  /** A topic as this deployment names it (`KAFKA_NAMESPACE`). */
  topic: (name: string) => string;
}

/**
 * The order fulfilment saga, started by `shop.order.placed.v1`: reserve stock → charge the card → create the
 * shipment. A step that fails compensates the ones before it in reverse (refund, then release); a step whose command
 * goes unanswered after its retries is compensated too, since it may have happened. The shop's
 * `shop.order.cancelled.v1` cancels it while it runs: what it did is undone and it ends `cancelled`. A refused or
 * unanswered compensation is sent again on the compensation policy before the saga is `failed`.
 */
export function orderFulfilmentSaga(settings: FulfilmentSettings): CompiledSaga<OrderFieldsV1> {
  const { timeoutsMs, stepRetries: retries, compensationPolicy, topic } = settings;
  return defineSaga<OrderFieldsV1>({
    type: ORDER_FULFILMENT,
    source: `/sagas/${ORDER_FULFILMENT}`,
    replyTopic: topic(TOPICS.fulfilmentReplies),
    compensationPolicy,
    steps: [
      {
        name: 'reserve-stock',
        timeoutMs: timeoutsMs.reserveStock,
        retries,
        action: {
          topic: topic(TOPICS.inventoryCommands),
          type: INVENTORY_RESERVE_STOCK_V1,
          data: ({ data }) => ({ orderId: data.orderId, lines: stockLines(data) }),
          succeeded: INVENTORY_STOCK_RESERVED_V1,
          failed: [INVENTORY_STOCK_RESERVATION_FAILED_V1],
        },
        compensation: {
          topic: topic(TOPICS.inventoryCommands),
          type: INVENTORY_RELEASE_STOCK_V1,
          data: ({ data }) => ({ orderId: data.orderId }),
          succeeded: INVENTORY_STOCK_RELEASED_V1,
        },
      },
      {
        name: 'charge-card',
        timeoutMs: timeoutsMs.chargeCard,
        retries,
        action: {
          topic: topic(TOPICS.paymentsCommands),
          type: PAYMENTS_CHARGE_CARD_V1,
          data: ({ data }) => ({
            orderId: data.orderId,
            customerId: data.customer.id,
            amount: data.amount,
            currency: data.currency,
          }),
          succeeded: PAYMENTS_CARD_CHARGED_V1,
          failed: [PAYMENTS_CARD_CHARGE_FAILED_V1],
        },
        compensation: {
          topic: topic(TOPICS.paymentsCommands),
          type: PAYMENTS_REFUND_CHARGE_V1,
          data: ({ data }) => ({ orderId: data.orderId, amount: data.amount, currency: data.currency }),
          succeeded: PAYMENTS_CHARGE_REFUNDED_V1,
          failed: [PAYMENTS_CHARGE_REFUND_FAILED_V1],
        },
      },
      {
        name: 'create-shipment',
        timeoutMs: timeoutsMs.createShipment,
        retries,
        action: {
          topic: topic(TOPICS.shippingCommands),
          type: SHIPPING_CREATE_SHIPMENT_V1,
          data: ({ data }) => ({ orderId: data.orderId, recipient: data.customer.id, lines: stockLines(data) }),
          succeeded: SHIPPING_SHIPMENT_CREATED_V1,
          failed: [SHIPPING_SHIPMENT_CREATION_FAILED_V1],
        },
        compensation: {
          topic: topic(TOPICS.shippingCommands),
          type: SHIPPING_CANCEL_SHIPMENT_V1,
          data: ({ data }) => ({ orderId: data.orderId }),
          succeeded: SHIPPING_SHIPMENT_CANCELLED_V1,
          failed: [SHIPPING_SHIPMENT_CANCELLATION_FAILED_V1],
        },
      },
    ],
    completed: {
      topic: topic(TOPICS.shopOrders),
      type: SHOP_ORDER_FULFILLED_V1,
      data: ({ data, results }) => ({
        ...orderFields(data),
        fulfilledAt: new Date().toISOString(),
        chargeId: results['charge-card']?.chargeId,
        shipmentId: results['create-shipment']?.shipmentId,
      }),
    },
    compensated: {
      topic: topic(TOPICS.shopOrders),
      type: SHOP_ORDER_FULFILMENT_FAILED_V1,
      data: ({ data }, reason) => ({
        ...orderFields(data),
        reason: reason ?? 'the order could not be fulfilled',
        failedAt: new Date().toISOString(),
      }),
    },
    cancelled: {
      topic: topic(TOPICS.shopOrders),
      type: SHOP_ORDER_FULFILMENT_CANCELLED_V1,
      data: ({ data }, reason) => ({
        ...orderFields(data),
        reason: reason ?? 'the order was cancelled',
        cancelledAt: new Date().toISOString(),
      }),
    },
    cancelledBy: [
      {
        type: SHOP_ORDER_CANCELLED_V1,
        correlationId: (order: ShopOrderCancelledV1) => order.orderId,
        reason: (order: ShopOrderCancelledV1) =>
          `the shop cancelled the order${order.reason ? `: ${order.reason}` : ''}`,
      },
    ],
  });
}

/** The saga as far as its message types go (they do not depend on the settings). */
const SHAPE = orderFulfilmentSaga({
  timeoutsMs: { reserveStock: 1, chargeCard: 1, createShipment: 1 },
  stepRetries: 0,
  compensationPolicy: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, ceilingMs: 0 },
  topic: (name) => name,
});

/** The reply types the coordinator listens to. */
export const FULFILMENT_REPLY_TYPES: readonly string[] = SHAPE.replyTypes;

/** The outside events that cancel a running fulfilment saga. */
export const FULFILMENT_CANCELLATION_TYPES: readonly string[] = (SHAPE.cancelledBy ?? []).map((c) => c.type);

/** The order's line items as stock lines, one per SKU (quantities of repeated SKUs added up), sorted by SKU. */
export function stockLines(order: OrderFieldsV1): StockLineV1[] {
  const bySku = new Map<string, number>();
  for (const item of order.lineItems) bySku.set(item.sku, (bySku.get(item.sku) ?? 0) + item.quantity);
  return [...bySku].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([sku, quantity]) => ({ sku, quantity }));
}

/** The order event fields an outcome repeats, so that a consumer of `shop.orders` needs nothing else. */
function orderFields(order: OrderFieldsV1): OrderFieldsV1 {
  const { orderId, customer, amount, currency, lineItems, note } = order;
  return { orderId, customer, amount, currency, lineItems, ...(note === undefined ? {} : { note }) };
}
