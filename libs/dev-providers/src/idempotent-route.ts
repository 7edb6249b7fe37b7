import { IncomingMessage, ServerResponse } from 'node:http';
import { parseJsonObject, readBody, reply } from './http-io';
import { IdempotencyStore } from './idempotency-store';

/** An operation's answer: an HTTP status and a JSON body. */
export interface DevAnswer {
  status: number;
  body: object;
}

/** What an idempotent route counts. */
export interface IdempotentCounts {
  /** Every request, answered or not. */
  requests: number;
  /** Requests answered from a key's first response. */
  replayed: number;
  /** Injected failures. */
  failed: number;
}

export interface IdempotentRouteDeps {
  idempotency: IdempotencyStore;
  counts: IdempotentCounts;
  /** The bearer check; false when it already answered 401. */
  authorized(request: IncomingMessage, response: ServerResponse): boolean;
  /** The injected latency and failures (DevProviderServer#simulate). */
  simulate(response: ServerResponse): Promise<'proceed' | 'failed' | 'abandoned'>;
}

/**
 * The `Idempotency-Key` protocol around one operation on a JSON body, as payment and carrier APIs do it: a key is
 * required; the first request with it runs the operation (after the injected latency and failures) and its answer is
 * kept; a repeat gets that answer (`Idempotent-Replayed: true`), the same key with another body 422, a repeat while
 * the first still runs 409. A 400, a 5xx or an injected failure frees the key, so that the request may be made
 * again (corrected, or once the provider is back).
 */
export async function serveIdempotent(
  deps: IdempotentRouteDeps,
  request: IncomingMessage,
  response: ServerResponse,
  operation: (body: Record<string, unknown>, key: string) => DevAnswer,
): Promise<void> {
  deps.counts.requests++;
  if (!deps.authorized(request, response)) return;
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || key.length === 0) return reply(response, 400, { error: 'idempotency_key_required' });
  const raw = await readBody(request);
  const body = parseJsonObject(raw);
  if (!body) return reply(response, 400, { error: 'invalid_json', message: 'the body must be a JSON object' });
  const check = deps.idempotency.begin(key, raw);
  if (check.kind === 'conflict')
    return reply(response, 422, { error: 'idempotency_key_reused', message: 'this key was used with another request' });
  if (check.kind === 'in-progress') return reply(response, 409, { error: 'request_in_progress' });
  if (check.kind === 'replay') {
    deps.counts.replayed++;
    const first = JSON.parse(check.body) as DevAnswer;
    response.writeHead(first.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
    response.end(JSON.stringify(first.body));
    return;
  }
  const outcome = await deps.simulate(response);
  if (outcome !== 'proceed') {
    if (outcome === 'failed') deps.counts.failed++;
    deps.idempotency.release(key);
    return;
  }
  const answer = operation(body, key);
  if (answer.status === 400 || answer.status >= 500) deps.idempotency.release(key);
  else deps.idempotency.complete(key, JSON.stringify(answer));
  reply(response, answer.status, answer.body);
}
