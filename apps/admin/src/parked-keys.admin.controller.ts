import { Controller, Get, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, jsonBody } from './admin-request';
import { AdminTokenGuard } from './admin-token.guard';
import { ParkedKeysUseCase } from './usecases/parked-keys.usecase';

/** Keys consumer groups hold back behind a dead letter (`keyOrder: 'park'`). Bearer ADMIN_TOKEN on every route. */
@Controller('admin/parked-keys')
@UseGuards(AdminTokenGuard)
export class ParkedKeysAdminController {
  constructor(private readonly parkedKeys: ParkedKeysUseCase) {}

  /** `?group=&key=&limit=` */
  @Get()
  list(@Query() query: Record<string, unknown>) {
    return this.parkedKeys.list(query);
  }

  /** Body: `{group, key, dryRun?, confirm?}`; `409 confirmation_required` while events are parked and not confirmed. */
  @Post('purge')
  @HttpCode(200)
  purge(@Req() request: FastifyRequest) {
    return this.parkedKeys.purge(actorOf(request), jsonBody(request));
  }
}
