import { Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { jsonBody } from '../http/json-body';
import { CustomerGuard, customerOf } from './customer.guard';
import { PortalUseCase } from './portal.usecase';

/** The customer API's session exchange (no token: the portal link is the credential), who the caller is, and the event types. */
@Controller('customer/v1')
export class PortalSessionController {
  constructor(private readonly portal: PortalUseCase) {}

  /** Body: `{link}`: a live, unused portal link → `{token, expiresAt, customer}`, a session token valid an hour. */
  @Post('sessions')
  @HttpCode(201)
  openSession(@Req() request: FastifyRequest) {
    return this.portal.openSession(jsonBody(request));
  }

  @Get('me')
  @UseGuards(CustomerGuard)
  me(@Req() request: FastifyRequest) {
    return this.portal.me(customerOf(request));
  }

  /** `[{type, description, schema}]`: the catalogue's event types. */
  @Get('event-types')
  @UseGuards(CustomerGuard)
  eventTypes() {
    return this.portal.eventTypes();
  }
}
