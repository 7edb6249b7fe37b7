import { AccessTokens, Identity, permit } from '@app/access';
import { bearerOf, forbidden, unauthorized } from '@app/http';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyRequest } from 'fastify';
import { NEED, RouteNeed } from './needs.decorator';

const IDENTITY = Symbol('identity');

/**
 * Every /admin API route: a bearer token that is live (the bootstrap ADMIN_TOKEN or a named token), or 401; then the
 * role and group the route needs (its `@Needs`, else reading for GET and acting for the rest), or 403 naming what is
 * missing. The token is looked up on every request: a revocation takes effect at the next one.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly tokens: AccessTokens,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const bearer = bearerOf(request.headers.authorization);
    if (!bearer) throw unauthorized('missing bearer token (Authorization: Bearer <token>)');
    const identity = await this.tokens.authenticate(bearer);
    if ('refused' in identity) throw unauthorized(identity.refused);
    const route = this.reflector.getAllAndOverride<RouteNeed | undefined>(NEED, [
      context.getHandler(),
      context.getClass(),
    ]) ?? { need: request.method === 'GET' ? 'read' : 'operate' };
    const permission = permit(identity, route.need, route.group);
    if (!permission.allowed) throw forbidden(permission.missing);
    (request as FastifyRequest & { [IDENTITY]?: Identity })[IDENTITY] = identity;
    return true;
  }
}

/** The identity AccessGuard let through. */
export function identityOf(request: FastifyRequest): Identity {
  const identity = (request as FastifyRequest & { [IDENTITY]?: Identity })[IDENTITY];
  if (!identity) throw new Error('identityOf: the route is not behind AccessGuard');
  return identity;
}

/** 403 unless the identity may do `need` on `group`: for routes whose group is in the request or the row. */
export function requireGroup(identity: Identity, need: 'read' | 'operate' | 'administer', group: string): void {
  const permission = permit(identity, need, group);
  if (!permission.allowed) throw forbidden(permission.missing);
}
