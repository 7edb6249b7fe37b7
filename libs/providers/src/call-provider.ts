import http, { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
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
  headers: IncomingHttpHeaders;
  body: string;
}

const DETAIL_CHARS = 300;

/**
 * Keep-alive connections shared by every provider client of the process. node:http rather than fetch: a call through
 * undici's fetch cost about three times the CPU (its streams, AbortSignals and Headers), and the groups that call
 * providers make hundreds of calls a second.
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};

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
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
  let response: ProviderResponse;
  try {
    response = await send(request, headers, body);
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new errors.unavailable(request.provider, `${request.provider} unreachable: ${(error as Error).message}`);
  }
  const kind = classifyStatus(response.status);
  if (kind === 'ok') return response;
  const detail = `${request.provider} answered ${response.status}: ${response.body.slice(0, DETAIL_CHARS)}`;
  if (kind === 'retryable') {
    const retryAfter = response.headers['retry-after'];
    throw new errors.unavailable(request.provider, detail, parseRetryAfter(retryAfter ?? null));
  }
  throw new errors.rejected(request.provider, detail, response.status);
}

/** The request and its whole answer; rejects on a network error, the timeout or the caller's abort. */
function send(request: ProviderRequest, headers: Record<string, string>, body?: string): Promise<ProviderResponse> {
  const url = typeof request.url === 'string' ? new URL(request.url) : request.url;
  const protocol = url.protocol === 'https:' ? 'https:' : url.protocol === 'http:' ? 'http:' : undefined;
  if (!protocol) return Promise.reject(new Error(`unsupported URL scheme ${url.protocol}`));
  const { signal, timeoutMs } = request;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const call = (protocol === 'https:' ? https : http).request(
      url,
      { method: request.method ?? 'POST', headers, agent: AGENTS[protocol] },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => {
          done();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        response.once('error', fail);
      },
    );
    const timer = setTimeout(() => call.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const abort = () => call.destroy(signal!.reason as Error);
    signal?.addEventListener('abort', abort, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
    function fail(error: Error) {
      done();
      reject(error);
    }
    call.once('error', fail);
    call.end(body);
  });
}

/** Joins a base URL and a relative path whether or not the base ends with a slash. */
export function providerUrl(baseUrl: string, path: string): URL {
  return new URL(path.replace(/^\/+/, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}
