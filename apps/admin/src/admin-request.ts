import { FastifyRequest } from 'fastify';
import { malformed } from '@app/http';

const OPERATOR = /^[\w.@ -]{1,100}$/;

/** Who is acting, for the audit: `admin:<X-Hookrail-Operator>` (the token is shared, the name says who used it). */
export function actorOf(request: FastifyRequest): string {
  const name = request.headers['x-hookrail-operator'];
  if (name === undefined || name === '') return 'admin';
  if (typeof name !== 'string' || !OPERATOR.test(name))
    throw malformed('X-Hookrail-Operator must be 1 to 100 letters, digits, spaces or ._@-');
  return `admin:${name}`;
}

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
