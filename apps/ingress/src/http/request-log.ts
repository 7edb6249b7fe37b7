import { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';

export interface RequestLogFields {
  source?: string;
  eventId?: string;
  outcome?: string;
}

const fieldsByRequest = new WeakMap<object, RequestLogFields>();

/** Adds fields to the one log line this request will produce. */
export function annotateRequest(request: FastifyRequest, fields: RequestLogFields): void {
  fieldsByRequest.set(request.raw, { ...fieldsByRequest.get(request.raw), ...fields });
}

export function requestFields(request: FastifyRequest): RequestLogFields {
  return fieldsByRequest.get(request.raw) ?? {};
}

/** One structured line per request: route, status, latency and what happened; never headers or payloads. */
export function logRequest(logger: Logger, request: FastifyRequest, reply: FastifyReply): void {
  const fields = requestFields(request);
  const line = {
    method: request.method,
    route: request.routeOptions.url ?? 'unmatched',
    status: reply.statusCode,
    latencyMs: Math.round(reply.elapsedTime * 100) / 100,
    ...fields,
  };
  if (reply.statusCode >= 500) logger.error(line, 'request failed');
  else if (
    request.url.startsWith('/metrics') ||
    request.url.startsWith('/healthz') ||
    request.url.startsWith('/readyz')
  )
    logger.debug(line, 'request');
  else logger.info(line, 'request');
}
