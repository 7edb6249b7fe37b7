import { SagaDetail } from '@app/saga';
import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf } from './admin-request';
import { AdminTokenGuard } from './admin-token.guard';
import { ListSagasUseCase } from './usecases/list-sagas.usecase';
import { RetrySagaUseCase } from './usecases/retry-saga.usecase';
import { ShowSagaUseCase } from './usecases/show-saga.usecase';

/** Sagas for operators: list (failed first), show with history, retry a failed one. Bearer ADMIN_TOKEN. */
@Controller('admin/sagas')
@UseGuards(AdminTokenGuard)
export class SagasAdminController {
  constructor(
    private readonly listSagas: ListSagasUseCase,
    private readonly showSaga: ShowSagaUseCase,
    private readonly retrySaga: RetrySagaUseCase,
  ) {}

  /** Query: `state`, `type`, `correlationId` (the order id), `limit`, `offset`. */
  @Get()
  list(@Query() query: Record<string, unknown>) {
    return this.listSagas.execute(query);
  }

  @Get(':id')
  show(@Param('id') id: string): Promise<SagaDetail> {
    return this.showSaga.execute(id);
  }

  @Post(':id/retry')
  @HttpCode(202)
  retry(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.retrySaga.execute(id, actorOf(request));
  }
}
