import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';

export interface RequestLogFields {
  source?: string;
  eventId?: string;
  outcome?: string;
}

const fieldsByRequest = new WeakMap<object, RequestLogFields>();
const NO_FIELDS: Readonly<RequestLogFields> = Object.freeze({});

/** Adds fields to the one log line this request will produce (one object per request, filled in place). */
export function annotateRequest(request: FastifyRequest, fields: RequestLogFields): void {
  const current = fieldsByRequest.get(request.raw);
  if (current) Object.assign(current, fields);
  else fieldsByRequest.set(request.raw, { ...fields });
}

export function requestFields(request: FastifyRequest): Readonly<RequestLogFields> {
  return fieldsByRequest.get(request.raw) ?? NO_FIELDS;
}

const QUIET_ROUTES = ['/metrics', '/healthz', '/readyz'];

/**
 * One structured line per request: route, status, latency and what happened; never headers or payloads. The line is
 * built only when its level is enabled: at `LOG_LEVEL=warn` an accepted delivery costs no log object at all.
 */
export function logRequest(logger: Logger, request: FastifyRequest, reply: FastifyReply, route: string): void {
  const level =
    reply.statusCode >= 500 ? 'error' : QUIET_ROUTES.some((route) => request.url.startsWith(route)) ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const line = {
    method: request.method,
    route,
    status: reply.statusCode,
    latencyMs: Math.round(reply.elapsedTime * 100) / 100,
    ...requestFields(request),
  };
  if (level === 'error') logger.error(line, 'request failed');
  else if (level === 'debug') logger.debug(line, 'request');
  else logger.info(line, 'request');
}

/** What counts a request: an app's latency histogram by method, route pattern and status. */
export interface RequestObserver {
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

/** After every response: its latency into the app's metrics and its one log line (logRequest). */
export function measureAndLogRequests(fastify: FastifyInstance, metrics: RequestObserver, logger: Logger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    logRequest(logger, request, reply, route);
    done();
  });
}
