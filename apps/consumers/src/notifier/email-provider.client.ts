import { PermanentError } from '@app/consumer-runtime';

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
export class EmailProviderUnavailableError extends Error {
  override name = 'EmailProviderUnavailableError';
}

/** The provider refused the email itself (400, 401, 403, 404, 422, …): retrying cannot help; dead-letter at once. */
export class EmailRejectedError extends PermanentError {
  override name = 'EmailRejectedError';
}

const RETRYABLE_STATUSES = new Set([408, 409, 425, 429]);

/**
 * `POST {base}/v1/emails` with `Idempotency-Key`: the provider sends one email per key and answers a repeated key
 * with the first response, so calling again after a crash is safe. Resolves to the provider's message id.
 */
export class EmailProviderClient {
  constructor(private readonly settings: EmailProviderSettings) {}

  async send(email: OutgoingEmail, idempotencyKey: string): Promise<string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': idempotencyKey };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    let response: Response;
    try {
      response = await fetch(new URL('v1/emails', withSlash(this.settings.baseUrl)), {
        method: 'POST',
        headers,
        body: JSON.stringify(email),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      throw new EmailProviderUnavailableError(`email provider unreachable: ${(error as Error).message}`);
    }
    const body = await response.text();
    if (response.ok) {
      const id = parseId(body);
      if (!id)
        throw new EmailProviderUnavailableError(`email provider answered ${response.status} without a message id`);
      return id;
    }
    const detail = `email provider answered ${response.status}: ${body.slice(0, 300)}`;
    if (response.status >= 500 || RETRYABLE_STATUSES.has(response.status))
      throw new EmailProviderUnavailableError(detail);
    throw new EmailRejectedError(detail);
  }
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function parseId(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
