import { malformed } from '@app/http';
import { FastifyRequest } from 'fastify';

/** The JSON object in the (raw) body; an empty body is `{}`. */
export function jsonBody(request: FastifyRequest): Record<string, unknown> {
  const raw = request.body as Buffer | undefined;
  if (!raw || raw.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw malformed('the body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw malformed('the body must be a JSON object');
  return body as Record<string, unknown>;
}
