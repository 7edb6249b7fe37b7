import { FastifyRequest } from 'fastify';
import { malformed } from '@app/http';
import { identityOf } from './access/access.guard';

const OPERATOR = /^[\w.@ -]{1,100}$/;

/**
 * Who is acting, for the audit: the token's name (`admin` for the bootstrap ADMIN_TOKEN), and after a colon the name
 * the caller gives in `X-Hookrail-Operator`, when the token is shared by several people (`admin:ada`).
 */
export function actorOf(request: FastifyRequest): string {
  const token = identityOf(request).name;
  const name = request.headers['x-hookrail-operator'];
  if (name === undefined || name === '') return token;
  if (typeof name !== 'string' || !OPERATOR.test(name))
    throw malformed('X-Hookrail-Operator must be 1 to 100 letters, digits, spaces or ._@-');
  return `${token}:${name}`;
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
