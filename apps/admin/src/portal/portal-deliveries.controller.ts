import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { jsonBody } from '../http/json-body';
import { CustomerGuard, customerOf } from './customer.guard';
import { PortalUseCase } from './portal.usecase';

/** The delivery log of a customer's endpoint, with each delivery's attempts, and its replays. */
@Controller('customer/v1/endpoints/:id')
@UseGuards(CustomerGuard)
export class PortalDeliveriesController {
  constructor(private readonly portal: PortalUseCase) {}

  /** Query: `status`, `eventType`, `since`, `until`, `limit`. Newest first. */
  @Get('deliveries')
  deliveries(@Param('id') id: string, @Query() query: Record<string, unknown>, @Req() request: FastifyRequest) {
    return this.portal.deliveries(customerOf(request), id, query);
  }

  @Get('deliveries/:deliveryId')
  delivery(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @Req() request: FastifyRequest) {
    return this.portal.delivery(customerOf(request), id, deliveryId);
  }

  @Post('deliveries/:deliveryId/replay')
  @HttpCode(200)
  replayOne(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @Req() request: FastifyRequest) {
    return this.portal.replayOne(customerOf(request), id, deliveryId);
  }

  /** Body: `{since, until?, status?, dryRun?, limit?}`. */
  @Post('replay')
  @HttpCode(200)
  replaySince(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.portal.replaySince(customerOf(request), id, jsonBody(request));
  }
}
