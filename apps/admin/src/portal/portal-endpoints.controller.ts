import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { jsonBody } from '../http/json-body';
import { CustomerGuard, customerOf } from './customer.guard';
import { PortalUseCase } from './portal.usecase';

/**
 * A customer's own endpoints: list, create (the signing secret in that answer only), show, change, disable, enable,
 * delete, rotate the secret, send a test delivery. Another customer's endpoint, or the operator's, is a 404.
 */
@Controller('customer/v1/endpoints')
@UseGuards(CustomerGuard)
export class PortalEndpointsController {
  constructor(private readonly portal: PortalUseCase) {}

  @Get()
  list(@Req() request: FastifyRequest) {
    return this.portal.list(customerOf(request));
  }

  /** Body: `{url, eventTypes, description?, payloadFilters?}`. */
  @Post()
  @HttpCode(201)
  create(@Req() request: FastifyRequest) {
    return this.portal.create(customerOf(request), jsonBody(request));
  }

  @Get(':id')
  show(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.portal.show(customerOf(request), id);
  }

  /** Body: `{url?, eventTypes?, description?, payloadFilters?}`. */
  @Patch(':id')
  update(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.portal.update(customerOf(request), id, jsonBody(request));
  }

  /** Body: `{reason?}`. */
  @Post(':id/disable')
  @HttpCode(200)
  disable(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.portal.disable(customerOf(request), id, jsonBody(request));
  }

  @Post(':id/enable')
  @HttpCode(200)
  enable(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.portal.enable(customerOf(request), id);
  }

  @Delete(':id')
  delete(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.portal.delete(customerOf(request), id);
  }

  /** `{secret}`: the new one signs from now on; the current ones keep signing for a day. */
  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.portal.rotateSecret(customerOf(request), id);
  }

  /** Body: `{eventType?}` → `{deliveryId}`: one delivery to this endpoint, sent by the workers like any other. */
  @Post(':id/test')
  @HttpCode(202)
  test(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.portal.test(customerOf(request), id, jsonBody(request));
  }
}
