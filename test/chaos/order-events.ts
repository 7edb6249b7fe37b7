import { SHOP_ORDER_CANCELLED_V1, SHOP_ORDER_PAID_V1, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { Random } from './random';

/** The data of a shop order event as the run sends it: the contract's fields plus `seq`, its place in the order. */
export interface OrderData {
  orderId: string;
  customer: { id: string; email: string };
  amount: number;
  currency: string;
  lineItems: Array<{ sku: string; quantity: number; unitAmount: number }>;
  note?: string;
  paymentId?: string;
  paidAt?: string;
  reason?: string;
  /** 1, 2, 3… per order: the order the events were sent (and committed) in. Unknown to the contract, passed along. */
  seq: number;
}

export interface SentEvent {
  /** Standard Webhooks `webhook-id`: the sender's event id, the same on every delivery of the event. */
  webhookId: string;
  orderId: string;
  seq: number;
  type: string;
  data: OrderData;
  /** The exact bytes every delivery of the event carries. */
  body: string;
  /** The group whose business rule this event breaks (it must dead-letter it); none for ordinary events. */
  poisonFor?: string;
}

/** An event the ingress answered 2xx for, with the event id it answered. */
export interface AcceptedEvent extends SentEvent {
  id: string;
}

const CURRENCIES = ['EUR', 'USD', 'GBP'];
const NOTES = ['please gift wrap it', 'leave the parcel at the door', 'can I swap the size?', 'the last one was late'];
const SKUS = ['notebook', 'pen', 'lamp', 'mug', 'poster'];

/**
 * Orders as sequences of events (placed, then up to three payments, sometimes a cancellation), from the run's seed.
 * A poison order is one `placed` event that breaks one group's business rule and is valid for everyone else.
 */
export class OrderFactory {
  private orders = 0;
  private readonly timestamp = new Date().toISOString();

  constructor(
    private readonly random: Random,
    private readonly poisonRules: ReadonlyArray<{ group: string; apply(data: OrderData): void }>,
  ) {}

  order(): SentEvent[] {
    const base = this.base();
    const events = [this.event(SHOP_ORDER_PLACED_V1, { ...base, seq: 1, note: this.note() })];
    const payments = this.random.int(0, 3);
    for (let i = 0; i < payments; i++) {
      events.push(
        this.event(SHOP_ORDER_PAID_V1, {
          ...base,
          seq: events.length + 1,
          paymentId: `pay_${base.orderId}_${i + 1}`,
          paidAt: this.timestamp,
        }),
      );
    }
    if (this.random.chance(0.3))
      events.push(this.event(SHOP_ORDER_CANCELLED_V1, { ...base, seq: events.length + 1, reason: 'changed mind' }));
    return events;
  }

  /** One event that `rule.group` must reject, or undefined when no group has a rule to break. */
  poisonOrder(): SentEvent | undefined {
    if (this.poisonRules.length === 0) return undefined;
    const rule = this.random.pick(this.poisonRules);
    const data: OrderData = { ...this.base(), seq: 1, note: this.note() };
    rule.apply(data);
    return { ...this.event(SHOP_ORDER_PLACED_V1, data), poisonFor: rule.group };
  }

  private base(): Omit<OrderData, 'seq'> {
    const n = ++this.orders;
    const customer = this.random.int(1, 40);
    const lineItems = Array.from({ length: this.random.int(1, 3) }, () => ({
      sku: this.random.pick(SKUS),
      quantity: this.random.int(1, 4),
      unitAmount: this.random.int(100, 5000),
    }));
    return {
      orderId: `ord_${n}`,
      customer: { id: `cus_${customer}`, email: `customer${customer}@example.com` },
      amount: lineItems.reduce((sum, item) => sum + item.quantity * item.unitAmount, 0),
      currency: this.random.pick(CURRENCIES),
      lineItems,
    };
  }

  private note(): string | undefined {
    return this.random.chance(0.3) ? this.random.pick(NOTES) : undefined;
  }

  private event(type: string, data: OrderData): SentEvent {
    const clean = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)) as OrderData;
    return {
      webhookId: `msg_${data.orderId}_${data.seq}`,
      orderId: data.orderId,
      seq: data.seq,
      type,
      data: clean,
      body: JSON.stringify({ type, timestamp: this.timestamp, data: clean }),
    };
  }
}
