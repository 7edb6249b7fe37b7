import { Database } from '@app/db';
import { bearerOf, unauthorized } from '@app/http';
import { authenticateCustomer, CustomerIdentity } from '@app/webhooks';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { asProblems } from '../webhook-endpoints/webhook-problems';
import { PortalRateLimit } from './portal-rate-limit';

const CUSTOMER = Symbol('customer');

/**
 * Every /customer/v1 route but the session exchange: a customer's bearer token (an API token or a portal session),
 * looked up on every request so that a revocation or expiry refuses the next one (401 naming why), then the token's
 * rate limit (429).
 */
@Injectable()
export class CustomerGuard implements CanActivate {
  constructor(
    private readonly database: Database,
    private readonly rateLimit: PortalRateLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const bearer = bearerOf(request.headers.authorization);
    if (!bearer) throw unauthorized('missing bearer token (Authorization: Bearer <customer token>)');
    const dataSource = await this.database.connection();
    const identity = await asProblems(() => authenticateCustomer(dataSource, bearer));
    this.rateLimit.take(identity.token.id);
    (request as FastifyRequest & { [CUSTOMER]?: CustomerIdentity })[CUSTOMER] = identity;
    return true;
  }
}

/** The customer CustomerGuard let through. */
export function customerOf(request: FastifyRequest): CustomerIdentity {
  const identity = (request as FastifyRequest & { [CUSTOMER]?: CustomerIdentity })[CUSTOMER];
  if (!identity) throw new Error('customerOf: the route is not behind CustomerGuard');
  return identity;
}
