import { callProvider, ProviderRejectedError, ProviderUnavailableError, providerUrl } from '@app/providers';

export interface OutgoingEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export interface EmailProviderSettings {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

/** The provider answered with an error status that a retry with the same key may fix (5xx, 408, 409, 429). */
export class EmailProviderUnavailableError extends ProviderUnavailableError {
  override name = 'EmailProviderUnavailableError';
}

/** The provider refused the email itself (400, 401, 403, 404, 422, …): retrying cannot help; dead-letter at once. */
export class EmailRejectedError extends ProviderRejectedError {
  override name = 'EmailRejectedError';
}

/** The dependency name the notifier's errors, breaker and metrics use. */
export const EMAIL_PROVIDER = 'email-provider';

/**
 * `POST {base}/v1/emails` with `Idempotency-Key`: the provider sends one email per key and answers a repeated key
 * with the first response, so calling again after a crash is safe. Resolves to the provider's message id.
 */
export class EmailProviderClient {
  constructor(private readonly settings: EmailProviderSettings) {}

  async send(email: OutgoingEmail, idempotencyKey: string): Promise<string> {
    const response = await callProvider(
      {
        provider: EMAIL_PROVIDER,
        url: providerUrl(this.settings.baseUrl, 'v1/emails'),
        body: email,
        apiKey: this.settings.apiKey,
        idempotencyKey,
        timeoutMs: this.settings.timeoutMs,
      },
      { unavailable: EmailProviderUnavailableError, rejected: EmailRejectedError },
    );
    const id = parseId(response.body);
    if (!id) {
      throw new EmailProviderUnavailableError(
        EMAIL_PROVIDER,
        `email provider answered ${response.status} without a message id`,
      );
    }
    return id;
  }
}

function parseId(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
