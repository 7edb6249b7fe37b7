import { Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, jsonBody } from '../admin-request';
import { AccessGuard } from '../access/access.guard';
import { Needs } from '../access/needs.decorator';
import { CustomersAdminUseCase } from './customers-admin.usecase';

const WEBHOOKS_GROUP = 'webhooks';

/**
 * Customers of outbound webhooks, their API tokens (each shown once) and single-use portal links. Reading needs a
 * token that may read the `webhooks` group; every change the admin role. `:id` is the customer's id or its uid. Every
 * change is audited with the token's name.
 */
@Controller('admin/customers')
@UseGuards(AccessGuard)
export class CustomersAdminController {
  constructor(private readonly customers: CustomersAdminUseCase) {}

  /** Body: `{uid, name}`. */
  @Post()
  @Needs('administer')
  @HttpCode(201)
  create(@Req() request: FastifyRequest) {
    return this.customers.create(jsonBody(request), actorOf(request));
  }

  @Get()
  @Needs('read', WEBHOOKS_GROUP)
  list() {
    return this.customers.list();
  }

  @Get(':id')
  @Needs('read', WEBHOOKS_GROUP)
  show(@Param('id') id: string) {
    return this.customers.show(id);
  }

  /** With its endpoints (their deliveries) and its tokens. */
  @Delete(':id')
  @Needs('administer')
  delete(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.customers.delete(id, actorOf(request));
  }

  /** Body: `{name, expires?}` (default 90 days, at most a year); the token is in this answer only. */
  @Post(':id/tokens')
  @Needs('administer')
  @HttpCode(201)
  issueToken(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.customers.issueToken(id, jsonBody(request), actorOf(request));
  }

  @Get(':id/tokens')
  @Needs('administer')
  tokens(@Param('id') id: string) {
    return this.customers.tokens(id);
  }

  @Post(':id/tokens/:name/revoke')
  @Needs('administer')
  @HttpCode(200)
  revokeToken(@Param('id') id: string, @Param('name') name: string, @Req() request: FastifyRequest) {
    return this.customers.revokeToken(id, name, actorOf(request));
  }

  /** Body: `{expiresInMinutes?}` (default 15, at most 60): `{url, expiresAt}`, a link that opens the portal once. */
  @Post(':id/portal-links')
  @Needs('administer')
  @HttpCode(201)
  portalLink(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.customers.portalLink(id, jsonBody(request), actorOf(request));
  }
}
