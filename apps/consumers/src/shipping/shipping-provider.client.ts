import { StockLineV1 } from '@app/contracts';
import { callProvider, ProviderRejectedError, ProviderUnavailableError, providerUrl } from '@app/providers';

export interface ShippingProviderSettings {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

/** The dependency name of the shipping group's errors, breaker and metrics. */
export const SHIPPING_PROVIDER = 'shipping-provider';

/** The carrier could not answer now (network, timeout, 5xx, 408, 409, 425, 429): retry with the same key. */
export class ShippingProviderUnavailableError extends ProviderUnavailableError {
  override name = 'ShippingProviderUnavailableError';
}

/** The carrier refused the request itself (422 undeliverable, …): retrying cannot help. */
export class ShipmentRejectedError extends ProviderRejectedError {
  override name = 'ShipmentRejectedError';
}

const ERRORS = { unavailable: ShippingProviderUnavailableError, rejected: ShipmentRejectedError };

/**
 * `POST {base}/v1/shipments` and `POST {base}/v1/shipments/cancel`, each with an `Idempotency-Key`. A cancellation
 * names the shipment by the create call's idempotency key.
 */
export class ShippingProviderClient {
  constructor(private readonly settings: ShippingProviderSettings) {}

  async create(
    shipment: { reference: string; recipient: string; lines: StockLineV1[] },
    idempotencyKey: string,
  ): Promise<{ shipmentId: string }> {
    const body = await this.post('v1/shipments', shipment, idempotencyKey);
    if (typeof body.id !== 'string' || !body.id)
      throw new ShippingProviderUnavailableError(SHIPPING_PROVIDER, 'shipping provider answered without a shipment id');
    return { shipmentId: body.id };
  }

  /** `cancelled` false: there was no shipment with that key, so nothing to cancel. */
  async cancel(
    cancel: { shipmentKey: string; reference: string },
    idempotencyKey: string,
  ): Promise<{ cancelled: boolean }> {
    const body = await this.post('v1/shipments/cancel', cancel, idempotencyKey);
    return { cancelled: body.status === 'cancelled' };
  }

  private async post(path: string, body: object, idempotencyKey: string): Promise<Record<string, unknown>> {
    const response = await callProvider(
      {
        provider: SHIPPING_PROVIDER,
        url: providerUrl(this.settings.baseUrl, path),
        body,
        apiKey: this.settings.apiKey,
        idempotencyKey,
        timeoutMs: this.settings.timeoutMs,
      },
      ERRORS,
    );
    try {
      return JSON.parse(response.body) as Record<string, unknown>;
    } catch {
      throw new ShippingProviderUnavailableError(
        SHIPPING_PROVIDER,
        `shipping provider answered ${response.status}, not JSON`,
      );
    }
  }
}
