import { callProvider, ProviderRejectedError, ProviderUnavailableError, providerUrl } from '@app/providers';

export interface PaymentProviderSettings {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

/** The dependency name of the payments group's errors, breaker and metrics. */
export const PAYMENT_PROVIDER = 'payment-provider';

/** The provider could not answer now (network, timeout, 5xx, 408, 409, 425, 429): retry with the same key. */
export class PaymentProviderUnavailableError extends ProviderUnavailableError {
  override name = 'PaymentProviderUnavailableError';
}

/** The provider refused the request itself (402 declined, 422, …): retrying cannot help. */
export class PaymentRejectedError extends ProviderRejectedError {
  override name = 'PaymentRejectedError';
}

const ERRORS = { unavailable: PaymentProviderUnavailableError, rejected: PaymentRejectedError };

/**
 * `POST {base}/v1/charges` and `POST {base}/v1/refunds`, each with an `Idempotency-Key`: the provider acts once per
 * key and answers a repeated key with its first answer, so calling again after a crash is safe. A refund names the
 * charge by the charge's own idempotency key, which the caller knows even when a crash lost the charge's answer.
 */
export class PaymentProviderClient {
  constructor(private readonly settings: PaymentProviderSettings) {}

  async charge(
    charge: { amount: number; currency: string; customer: string; reference: string },
    idempotencyKey: string,
  ): Promise<{ chargeId: string; amount: number }> {
    const body = await this.post('v1/charges', charge, idempotencyKey);
    if (typeof body.id !== 'string' || !body.id)
      throw new PaymentProviderUnavailableError(PAYMENT_PROVIDER, 'payment provider answered a charge without an id');
    return { chargeId: body.id, amount: Number(body.amount ?? charge.amount) };
  }

  /**
   * `refundId` null and `amount` 0: there was no charge with that key, so nothing to refund; `status` is what the
   * provider says (`succeeded`, `nothing_to_refund`).
   */
  async refund(
    refund: { chargeKey: string; reference: string },
    idempotencyKey: string,
  ): Promise<{ refundId: string | null; amount: number; status: string }> {
    const body = await this.post('v1/refunds', refund, idempotencyKey);
    const refundId = typeof body.id === 'string' ? body.id : null;
    const status = typeof body.status === 'string' ? body.status : refundId ? 'succeeded' : 'nothing_to_refund';
    return { refundId, amount: Number(body.amount ?? 0), status };
  }

  private async post(path: string, body: object, idempotencyKey: string): Promise<Record<string, unknown>> {
    const response = await callProvider(
      {
        provider: PAYMENT_PROVIDER,
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
      throw new PaymentProviderUnavailableError(
        PAYMENT_PROVIDER,
        `payment provider answered ${response.status}, not JSON`,
      );
    }
  }
}
