import {
  DevAnswer,
  DevBehaviour,
  DevProviderOptions,
  DevProviderServer,
  DevRoute,
  IdempotencyStore,
  IdempotentRouteDeps,
  reply,
  serveIdempotent,
} from '@app/dev-providers';
import { randomUUID } from 'node:crypto';

export interface PaymentProviderBehaviour extends DevBehaviour {
  /** The next N charges are declined (402 `card_declined`): a business answer, nothing charged. */
  declineNext: number;
  /** Share of charges (0–1) declined. */
  declineRate: number;
  /** The next N charges fail with `failStatus` and do nothing, refunds unaffected: a charge path that is down. */
  failNextCharges: number;
}

export interface Charge {
  id: string;
  idempotencyKey: string;
  amount: number;
  currency: string;
  customer: string;
  reference: string;
  refunded: boolean;
  createdAt: string;
}

export interface Refund {
  id: string;
  idempotencyKey: string;
  chargeId: string;
  amount: number;
  currency: string;
  createdAt: string;
}

export interface PaymentProviderStats {
  /** Every `POST /v1/charges` and `POST /v1/refunds`, answered or not. */
  requests: number;
  /** Charges made: one per idempotency key at most. */
  charges: number;
  chargedAmount: number;
  /** Refunds made: at most one per charge. */
  refunds: number;
  refundedAmount: number;
  declined: number;
  /** Requests answered from a key's first response. */
  replayed: number;
  /** Injected failures (`failNext`, `failureRate`). */
  failed: number;
  keys: Record<string, number>;
}

/**
 * A small payment provider for development and tests, over real HTTP. `POST /v1/charges` charges once per
 * `Idempotency-Key` and answers a repeated key with the first response; `POST /v1/refunds` refunds the charge made
 * with `chargeKey` (the charge's own idempotency key, which the caller knows even when a crash lost the charge's
 * answer), once, and answers `nothing_to_refund` when no such charge exists. Charges can be declined or made to fail
 * on demand, and every call can be made to fail, time out or slow down (`POST /_dev/behaviour`); `GET /_dev/stats`
 * counts.
 */
export class DevPaymentProvider extends DevProviderServer<PaymentProviderBehaviour> {
  readonly charges: Charge[] = [];
  readonly refunds: Refund[] = [];
  private readonly counts = { requests: 0, declined: 0, replayed: 0, failed: 0 };
  private readonly routeDeps: IdempotentRouteDeps = {
    idempotency: new IdempotencyStore(),
    counts: this.counts,
    authorized: (request, response) => this.authorized(request, response),
    simulate: (response) => this.simulate(response, { error: 'provider_failure', message: 'failing on purpose' }),
  };

  private constructor(apiKey?: string) {
    super(apiKey, { declineNext: 0, declineRate: 0, failNextCharges: 0 });
  }

  static start(options: DevProviderOptions<PaymentProviderBehaviour> = {}): Promise<DevPaymentProvider> {
    return new DevPaymentProvider(options.apiKey).listen(options);
  }

  stats(): PaymentProviderStats {
    return {
      ...this.counts,
      charges: this.charges.length,
      chargedAmount: this.charges.reduce((sum, charge) => sum + charge.amount, 0),
      refunds: this.refunds.length,
      refundedAmount: this.refunds.reduce((sum, refund) => sum + refund.amount, 0),
      keys: this.routeDeps.idempotency.requestsPerKey(),
    };
  }

  protected routes(): Record<string, DevRoute> {
    return {
      'POST /v1/charges': (request, response) =>
        serveIdempotent(this.routeDeps, request, response, (body, key) => this.charge(body, key)),
      'POST /v1/refunds': (request, response) =>
        serveIdempotent(this.routeDeps, request, response, (body, key) => this.refund(body, key)),
      'GET /v1/charges': async (_request, response) => reply(response, 200, { data: this.charges }),
      'GET /v1/refunds': async (_request, response) => reply(response, 200, { data: this.refunds }),
    };
  }

  private charge(body: Record<string, unknown>, key: string): DevAnswer {
    const amount = body.amount;
    const currency = body.currency;
    if (!Number.isInteger(amount) || (amount as number) < 0 || typeof currency !== 'string' || !currency)
      return {
        status: 400,
        body: { error: 'invalid_charge', message: 'amount (integer ≥ 0) and currency are required' },
      };
    const behaviour = this.behaviour;
    if (behaviour.failNextCharges > 0) {
      behaviour.failNextCharges--;
      this.counts.failed++;
      return { status: behaviour.failStatus, body: { error: 'provider_failure', message: 'charges are failing' } };
    }
    if (behaviour.declineNext > 0 || Math.random() < behaviour.declineRate) {
      if (behaviour.declineNext > 0) behaviour.declineNext--;
      this.counts.declined++;
      return { status: 402, body: { error: 'card_declined', message: 'the card was declined' } };
    }
    const charge: Charge = {
      id: `ch_${randomUUID()}`,
      idempotencyKey: key,
      amount: amount as number,
      currency,
      customer: String(body.customer ?? ''),
      reference: String(body.reference ?? ''),
      refunded: false,
      createdAt: new Date().toISOString(),
    };
    this.charges.push(charge);
    return { status: 201, body: { id: charge.id, status: 'succeeded', amount: charge.amount, currency } };
  }

  private refund(body: Record<string, unknown>, key: string): DevAnswer {
    const chargeKey = body.chargeKey;
    if (typeof chargeKey !== 'string' || !chargeKey)
      return { status: 400, body: { error: 'invalid_refund', message: 'chargeKey is required' } };
    const charge = this.charges.find((candidate) => candidate.idempotencyKey === chargeKey);
    if (!charge) return { status: 200, body: { id: null, status: 'nothing_to_refund', amount: 0 } };
    const earlier = this.refunds.find((refund) => refund.chargeId === charge.id);
    if (earlier) return { status: 200, body: { id: earlier.id, status: 'succeeded', amount: earlier.amount } };
    const refund: Refund = {
      id: `re_${randomUUID()}`,
      idempotencyKey: key,
      chargeId: charge.id,
      amount: charge.amount,
      currency: charge.currency,
      createdAt: new Date().toISOString(),
    };
    charge.refunded = true;
    this.refunds.push(refund);
    return { status: 201, body: { id: refund.id, status: 'succeeded', amount: refund.amount } };
  }
}
