import { GENERIC_PROVIDER_ERRORS, ProviderErrorTypes } from './provider-errors';
import { classifyStatus, parseRetryAfter } from './provider-status';

export interface ProviderRequest {
  /** Names the dependency in errors and metrics, e.g. `email-provider`. */
  provider: string;
  url: string | URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Bearer token, when the provider wants one. */
  apiKey?: string;
  /** `Idempotency-Key`: the provider does the work once per key. */
  idempotencyKey?: string;
  timeoutMs: number;
  /** Aborting it rethrows the abort as it is (a shutdown, not an outage). */
  signal?: AbortSignal;
}

export interface ProviderResponse {
  status: number;
  headers: Headers;
  body: string;
}

const DETAIL_CHARS = 300;

/**
 * One HTTP call to an external provider, classified the same way for every client: a 2xx resolves; a network error,
 * a timeout, a 5xx or a retryable 4xx throws `errors.unavailable` (with the provider's `Retry-After`); any other
 * status throws `errors.rejected` (permanent).
 */
export async function callProvider(
  request: ProviderRequest,
  errors: ProviderErrorTypes = GENERIC_PROVIDER_ERRORS,
): Promise<ProviderResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
  const timeout = AbortSignal.timeout(request.timeoutMs);
  let response: Response;
  let body: string;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'POST',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
    });
    body = await response.text();
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new errors.unavailable(request.provider, `${request.provider} unreachable: ${(error as Error).message}`);
  }
  const kind = classifyStatus(response.status);
  if (kind === 'ok') return { status: response.status, headers: response.headers, body };
  const detail = `${request.provider} answered ${response.status}: ${body.slice(0, DETAIL_CHARS)}`;
  if (kind === 'retryable') {
    throw new errors.unavailable(request.provider, detail, parseRetryAfter(response.headers.get('retry-after')));
  }
  throw new errors.rejected(request.provider, detail, response.status);
}

/** Joins a base URL and a relative path whether or not the base ends with a slash. */
export function providerUrl(baseUrl: string, path: string): URL {
  return new URL(path.replace(/^\/+/, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}
