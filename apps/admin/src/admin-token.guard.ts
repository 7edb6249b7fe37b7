import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '@app/http';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The ADMIN_TOKEN, kept as a digest so that comparing it takes the same time whatever is sent. */
export class AdminToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  matches(given: string): boolean {
    return timingSafeEqual(this.expected, digest(given));
  }
}

/** Every /admin API route: `Authorization: Bearer <ADMIN_TOKEN>` or 401, before anything runs. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly token: AdminToken) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw unauthorized('missing bearer token (Authorization: Bearer <ADMIN_TOKEN>)');
    if (!this.token.matches(match[1])) throw unauthorized('the bearer token is not valid');
    return true;
  }
}
