import { FastifyRequest } from 'fastify';
import { malformed } from '@app/http';
import { identityOf } from './access/access.guard';

export { jsonBody } from './http/json-body';

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
