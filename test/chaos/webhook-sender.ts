import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { OrderFactory, SentEvent } from './order-events';
import { Random } from './random';

/** One HTTP delivery and what came back. `status` 0: no answer (connection error or timeout). */
export interface Delivery {
  webhookId: string;
  ingress: number;
  kind: 'first' | 'retry' | 'duplicate';
  /** A duplicate sent at the same moment as another delivery of the event, to the other ingress. */
  concurrent: boolean;
  sentAt: number;
  answeredAt: number;
  status: number;
  retryAfter?: string;
  body?: { id?: string; duplicate?: boolean; error?: string; recorded?: boolean | string; mayBeRecorded?: boolean };
  error?: string;
}

interface Order {
  events: SentEvent[];
  /** Index of the event to send next; the one before it was answered 2xx. */
  next: number;
  /** The current event awaits a 2xx (first delivery or retries in hand). */
  waiting: boolean;
}

export interface SenderOptions {
  ingressPorts: number[];
  secret: string;
  ratePerSecond: number;
  duplicateShare: number;
  poisonShare: number;
  /** Orders in progress at once (each sends its next event only after the previous one was answered 2xx). */
  activeOrders: number;
  requestTimeoutMs: number;
}

// A connection per delivery: a kept-alive connection that the server closes for idling just as a request goes out
// on it is reset, which says nothing about the ingress (and real senders open connections the same way).
const agent = new http.Agent({ keepAlive: false, maxSockets: 256 });

/**
 * Sends signed Standard Webhooks deliveries at a fixed rate (open loop: a stall shows as late answers, not as a
 * lower rate): new events of shop orders, each order's next event only once the previous one was answered 2xx (so
 * that commit order is the order's sequence), a duplicate delivery for a share of them (half at the same moment to
 * the other ingress, half a little later), and a share of poison events. A 503 or 429 is retried after its
 * Retry-After, an unanswered delivery after a second, as a sender would; every answer is recorded.
 */
export class WebhookSender {
  readonly deliveries: Delivery[] = [];
  /** Events offered (first deliveries) and answered 2xx, by webhook id. */
  readonly offered = new Map<string, SentEvent>();
  readonly acceptedIds = new Map<string, string>();
  private readonly active: Order[] = [];
  private readonly webhook: Webhook;
  private readonly pendingTimers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly random: Random,
    private readonly orders: OrderFactory,
    private readonly options: SenderOptions,
  ) {
    this.webhook = new Webhook(options.secret);
  }

  /** Offers new events at the fixed rate for `seconds`; retries go on until `finish`. Resolves with its end. */
  async offer(seconds: number): Promise<number> {
    const start = performance.now();
    const total = Math.round(seconds * this.options.ratePerSecond);
    let sent = 0;
    while (sent < total && !this.stopped) {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * this.options.ratePerSecond) + 1);
      for (; sent < due; sent++) this.offerOne();
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return Date.now();
  }

  /** Events offered that have no 2xx yet. */
  unanswered(): number {
    return this.offered.size - this.acceptedIds.size;
  }

  /** Waits until every offered event was answered 2xx (retries included), or the deadline. */
  async finish(deadline: number): Promise<void> {
    while (this.unanswered() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.allSettled([...this.inFlight]);
  }

  /** No more retries or late duplicates. */
  stop(): void {
    this.stopped = true;
    for (const timer of this.pendingTimers) clearTimeout(timer);
    this.pendingTimers.clear();
  }

  private offerOne(): void {
    const poison = this.random.chance(this.options.poisonShare) ? this.orders.poisonOrder() : undefined;
    if (poison) {
      this.start({ events: [poison], next: 0, waiting: false });
      return;
    }
    const ready = this.active.filter((order) => !order.waiting);
    if (ready.length > 0 && (this.active.length >= this.options.activeOrders || this.random.chance(0.5))) {
      this.sendNext(this.random.pick(ready));
    } else {
      this.start({ events: this.orders.order(), next: 0, waiting: false });
    }
  }

  private start(order: Order): void {
    this.active.push(order);
    this.sendNext(order);
  }

  private sendNext(order: Order): void {
    const event = order.events[order.next];
    order.waiting = true;
    this.offered.set(event.webhookId, event);
    const ingress = this.random.int(0, this.options.ingressPorts.length - 1);
    const duplicate = this.random.chance(this.options.duplicateShare);
    const concurrent = duplicate && this.random.chance(0.5);
    this.deliver(order, event, ingress, 'first', concurrent);
    if (concurrent) {
      this.deliver(undefined, event, (ingress + 1) % this.options.ingressPorts.length, 'duplicate', true);
    } else if (duplicate) {
      this.later(this.random.between(200, 3000), () =>
        this.deliver(undefined, event, this.random.int(0, this.options.ingressPorts.length - 1), 'duplicate', false),
      );
    }
  }

  /** `order` is set for the delivery that moves the order on (first delivery and its retries). */
  private deliver(
    order: Order | undefined,
    event: SentEvent,
    ingress: number,
    kind: Delivery['kind'],
    concurrent: boolean,
  ): void {
    const work = this.post(event, ingress).then((answer) => {
      const delivery: Delivery = { webhookId: event.webhookId, ingress, kind, concurrent, ...answer };
      this.deliveries.push(delivery);
      const id = answer.status >= 200 && answer.status < 300 ? answer.body?.id : undefined;
      if (id && !this.acceptedIds.has(event.webhookId)) this.acceptedIds.set(event.webhookId, id);
      if (!order) return;
      if (this.acceptedIds.has(event.webhookId)) return this.advance(order);
      if (answer.status >= 200 && answer.status < 300) return this.advance(order);
      // A real sender retries a 5xx, a 429 and a lost answer; after its Retry-After when given.
      const retryAfterMs = Number(answer.retryAfter ?? 1) * 1000;
      this.later(Number.isFinite(retryAfterMs) ? retryAfterMs : 1000, () =>
        this.acceptedIds.has(event.webhookId)
          ? this.advance(order)
          : this.deliver(order, event, this.random.int(0, this.options.ingressPorts.length - 1), 'retry', false),
      );
    });
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private advance(order: Order): void {
    if (!order.waiting) return;
    order.waiting = false;
    order.next++;
    if (order.next >= order.events.length) this.active.splice(this.active.indexOf(order), 1);
  }

  private later(ms: number, work: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.pendingTimers.delete(timer);
      if (!this.stopped) work();
    }, ms);
    this.pendingTimers.add(timer);
  }

  private post(
    event: SentEvent,
    ingress: number,
  ): Promise<Omit<Delivery, 'webhookId' | 'ingress' | 'kind' | 'concurrent'>> {
    const now = new Date();
    const headers = {
      'content-type': 'application/json',
      'webhook-id': event.webhookId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': this.webhook.sign(event.webhookId, now, event.body),
    };
    const sentAt = Date.now();
    return new Promise((resolve) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: this.options.ingressPorts[ingress],
          method: 'POST',
          path: '/webhooks/shop',
          headers,
          agent,
          timeout: this.options.requestTimeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            let body: Delivery['body'];
            try {
              body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              body = undefined;
            }
            const retryAfter = response.headers['retry-after'];
            resolve({ sentAt, answeredAt: Date.now(), status: response.statusCode ?? 0, retryAfter, body });
          });
          response.on('error', (error) => resolve({ sentAt, answeredAt: Date.now(), status: 0, error: error.message }));
        },
      );
      request.on('timeout', () => request.destroy(new Error('no answer in time')));
      request.on('error', (error) => resolve({ sentAt, answeredAt: Date.now(), status: 0, error: error.message }));
      request.end(event.body);
    });
  }
}
