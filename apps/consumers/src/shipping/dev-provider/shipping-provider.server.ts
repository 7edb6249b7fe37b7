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

export interface ShippingProviderBehaviour extends DevBehaviour {
  /** The next N shipments are rejected (422 `undeliverable`): a business answer, nothing created. */
  rejectNext: number;
  /** Share of shipments (0–1) rejected; 1: every shipment fails permanently. */
  rejectRate: number;
  /** Shipments to these recipients are always rejected. */
  rejectRecipients: string[];
}

export interface Shipment {
  id: string;
  idempotencyKey: string;
  reference: string;
  recipient: string;
  lines: unknown;
  cancelled: boolean;
  createdAt: string;
}

export interface ShippingProviderStats {
  /** Every `POST /v1/shipments` and `POST /v1/shipments/cancel`, answered or not. */
  requests: number;
  /** Shipments created: one per idempotency key at most. */
  shipments: number;
  cancelled: number;
  rejected: number;
  replayed: number;
  /** Injected failures (`failNext`, `failureRate`). */
  failed: number;
  keys: Record<string, number>;
}

/**
 * A small shipping provider (carrier) for development and tests, over real HTTP. `POST /v1/shipments` creates one
 * shipment per `Idempotency-Key`; `POST /v1/shipments/cancel` cancels the shipment created with `shipmentKey` (or
 * answers `nothing_to_cancel`). Shipments can be rejected on demand (a permanent failure), and every call can be made
 * to fail, time out or slow down (`POST /_dev/behaviour`); `GET /_dev/stats` counts.
 */
export class DevShippingProvider extends DevProviderServer<ShippingProviderBehaviour> {
  readonly shipments: Shipment[] = [];
  private readonly counts = { requests: 0, rejected: 0, replayed: 0, failed: 0 };
  private readonly routeDeps: IdempotentRouteDeps = {
    idempotency: new IdempotencyStore(),
    counts: this.counts,
    authorized: (request, response) => this.authorized(request, response),
    simulate: (response) => this.simulate(response, { error: 'provider_failure', message: 'failing on purpose' }),
  };

  private constructor(apiKey?: string) {
    super(apiKey, { rejectNext: 0, rejectRate: 0, rejectRecipients: [] });
  }

  static start(options: DevProviderOptions<ShippingProviderBehaviour> = {}): Promise<DevShippingProvider> {
    return new DevShippingProvider(options.apiKey).listen(options);
  }

  stats(): ShippingProviderStats {
    return {
      ...this.counts,
      shipments: this.shipments.length,
      cancelled: this.shipments.filter((shipment) => shipment.cancelled).length,
      keys: this.routeDeps.idempotency.requestsPerKey(),
    };
  }

  protected routes(): Record<string, DevRoute> {
    return {
      'POST /v1/shipments': (request, response) =>
        serveIdempotent(this.routeDeps, request, response, (body, key) => this.create(body, key)),
      'POST /v1/shipments/cancel': (request, response) =>
        serveIdempotent(this.routeDeps, request, response, (body) => this.cancel(body)),
      'GET /v1/shipments': async (_request, response) => reply(response, 200, { data: this.shipments }),
    };
  }

  private create(body: Record<string, unknown>, key: string): DevAnswer {
    if (typeof body.recipient !== 'string' || !body.recipient || !Array.isArray(body.lines))
      return { status: 400, body: { error: 'invalid_shipment', message: 'recipient and lines are required' } };
    const behaviour = this.behaviour;
    const rejected = behaviour.rejectRecipients.includes(body.recipient);
    if (rejected || behaviour.rejectNext > 0 || Math.random() < behaviour.rejectRate) {
      if (!rejected && behaviour.rejectNext > 0) behaviour.rejectNext--;
      this.counts.rejected++;
      return { status: 422, body: { error: 'undeliverable', message: 'the carrier cannot deliver to this recipient' } };
    }
    const shipment: Shipment = {
      id: `shp_${randomUUID()}`,
      idempotencyKey: key,
      reference: String(body.reference ?? ''),
      recipient: body.recipient,
      lines: body.lines,
      cancelled: false,
      createdAt: new Date().toISOString(),
    };
    this.shipments.push(shipment);
    return { status: 201, body: { id: shipment.id, status: 'created' } };
  }

  private cancel(body: Record<string, unknown>): DevAnswer {
    if (typeof body.shipmentKey !== 'string' || !body.shipmentKey)
      return { status: 400, body: { error: 'invalid_cancellation', message: 'shipmentKey is required' } };
    const shipment = this.shipments.find((candidate) => candidate.idempotencyKey === body.shipmentKey);
    if (!shipment) return { status: 200, body: { id: null, status: 'nothing_to_cancel' } };
    shipment.cancelled = true;
    return { status: 200, body: { id: shipment.id, status: 'cancelled' } };
  }
}
