import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, jsonBody } from '../admin-request';
import { AccessGuard } from '../access/access.guard';
import { Needs } from '../access/needs.decorator';
import { optionalPositiveInt } from '../usecases/dead-letter-selection';
import { WebhookEndpointsAdminUseCase } from './webhook-endpoints-admin.usecase';

/**
 * Outbound webhook endpoints for operators: create (the signing secret is shown in that answer only), list, show,
 * disable, enable, rotate the secret, delete; the delivery log with its attempts; send a pending delivery now
 * instead of at its next attempt; replay one delivery or every one since a time (`dryRun` first). They are the
 * `webhooks` group's: reading needs a token that may read it; disabling, enabling, sending and replaying one that may
 * act on it; what hands out or destroys a secret or an endpoint (create, rotate, delete) the admin role. Every change
 * is audited with the token's name.
 */
const WEBHOOKS_GROUP = 'webhooks';

@Controller('admin/webhook-endpoints')
@UseGuards(AccessGuard)
export class WebhookEndpointsAdminController {
  constructor(private readonly endpoints: WebhookEndpointsAdminUseCase) {}

  /**
   * Body: `{url, eventTypes, description?, ordered?, rateLimitPerSecond?, maxInFlight?, customerId?, payloadFilters?}`;
   * with `customerId` the endpoint receives that customer's events only.
   */
  @Post()
  @Needs('administer')
  @HttpCode(201)
  create(@Req() request: FastifyRequest) {
    return this.endpoints.create(jsonBody(request), actorOf(request));
  }

  @Get()
  @Needs('read', WEBHOOKS_GROUP)
  list() {
    return this.endpoints.list();
  }

  @Get(':id')
  @Needs('read', WEBHOOKS_GROUP)
  show(@Param('id') id: string) {
    return this.endpoints.show(id);
  }

  /** Body: `{reason?}`. */
  @Post(':id/disable')
  @Needs('operate', WEBHOOKS_GROUP)
  @HttpCode(200)
  disable(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.endpoints.disable(id, jsonBody(request), actorOf(request));
  }

  @Post(':id/enable')
  @Needs('operate', WEBHOOKS_GROUP)
  @HttpCode(200)
  enable(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.endpoints.enable(id, actorOf(request));
  }

  /** Body: `{overlapSeconds?}` (default 86400): how long the current secrets keep signing beside the new one. */
  @Post(':id/rotate-secret')
  @Needs('administer')
  @HttpCode(200)
  rotateSecret(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.endpoints.rotateSecret(id, jsonBody(request), actorOf(request));
  }

  @Delete(':id')
  @Needs('administer')
  delete(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.endpoints.delete(id, actorOf(request));
  }

  /** Query: `status`, `eventType`, `since`, `until` (ISO time or 30m, 6h, 2d), `limit`. Newest first. */
  @Get(':id/deliveries')
  @Needs('read', WEBHOOKS_GROUP)
  deliveries(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.endpoints.deliveries(id, query);
  }

  @Get(':id/deliveries/:deliveryId')
  @Needs('read', WEBHOOKS_GROUP)
  delivery(@Param('id') id: string, @Param('deliveryId') deliveryId: string) {
    return this.endpoints.delivery(id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/replay')
  @Needs('operate', WEBHOOKS_GROUP)
  @HttpCode(200)
  replayOne(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @Req() request: FastifyRequest) {
    return this.endpoints.replayOne(id, deliveryId, actorOf(request));
  }

  /** A pending delivery due now (its attempts and retry schedule kept); 409 for any other state. */
  @Post(':id/deliveries/:deliveryId/retry')
  @Needs('operate', WEBHOOKS_GROUP)
  @HttpCode(200)
  retryNow(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @Req() request: FastifyRequest) {
    return this.endpoints.retryNow(id, deliveryId, actorOf(request));
  }

  /**
   * Body: `{since, until?, status?, dryRun?, limit?}`: every delivery created in the window that was delivered, failed
   * (only those of `status` when given) or is in flight, oldest first.
   */
  @Post(':id/replay')
  @Needs('operate', WEBHOOKS_GROUP)
  @HttpCode(200)
  replaySince(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.endpoints.replaySince(id, jsonBody(request), actorOf(request));
  }

  @Get(':id/audit')
  @Needs('read', WEBHOOKS_GROUP)
  audit(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return this.endpoints.audit(id, optionalPositiveInt(query, 'limit', 1000) ?? 50);
  }
}
