import { Identity, permit } from '@app/access';
import { Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, jsonBody } from '../admin-request';
import { AccessGuard, identityOf } from './access.guard';
import { Needs } from './needs.decorator';
import { TokensAdminUseCase } from './tokens-admin.usecase';

/** Who the caller is, and what its token may do: what the console shows and offers (`kubectl auth can-i`). */
export interface WhoAmI extends Identity {
  may: { read: boolean; operate: boolean; administer: boolean };
}

/** The caller's identity, and the operator tokens (the admin role): list, create (shown once), revoke. */
@Controller('admin')
@UseGuards(AccessGuard)
export class TokensAdminController {
  constructor(private readonly tokens: TokensAdminUseCase) {}

  @Get('whoami')
  whoami(@Req() request: FastifyRequest): WhoAmI {
    const identity = identityOf(request);
    const may = (need: 'read' | 'operate' | 'administer') => permit(identity, need).allowed;
    return { ...identity, may: { read: may('read'), operate: may('operate'), administer: may('administer') } };
  }

  @Get('tokens')
  @Needs('administer')
  list() {
    return this.tokens.list();
  }

  /** Body: `{name, role, groups?, sources?, expires?}`; the token is in this answer only. */
  @Post('tokens')
  @Needs('administer')
  @HttpCode(201)
  create(@Req() request: FastifyRequest) {
    return this.tokens.create(jsonBody(request), actorOf(request));
  }

  @Post('tokens/:name/revoke')
  @Needs('administer')
  @HttpCode(200)
  revoke(@Param('name') name: string, @Req() request: FastifyRequest) {
    return this.tokens.revoke(name, actorOf(request));
  }
}
