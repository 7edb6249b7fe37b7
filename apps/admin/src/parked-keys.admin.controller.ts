import { Controller, Get, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, jsonBody } from './admin-request';
import { AccessGuard, identityOf } from './access/access.guard';
import { Needs } from './access/needs.decorator';
import { ParkedKeysUseCase } from './usecases/parked-keys.usecase';

/** Keys consumer groups hold back behind a dead letter (`keyOrder: 'park'`): a purge needs the admin role. */
@Controller('admin/parked-keys')
@UseGuards(AccessGuard)
export class ParkedKeysAdminController {
  constructor(private readonly parkedKeys: ParkedKeysUseCase) {}

  /** `?group=&key=&limit=` */
  @Get()
  list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest) {
    return this.parkedKeys.list(query, identityOf(request));
  }

  /** Body: `{group, key, dryRun?, confirm?}`; `409 confirmation_required` while events are parked and not confirmed. */
  @Post('purge')
  @Needs('administer')
  @HttpCode(200)
  purge(@Req() request: FastifyRequest) {
    return this.parkedKeys.purge(actorOf(request), jsonBody(request));
  }
}
