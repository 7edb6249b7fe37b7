import { SagaDetail } from '@app/saga';
import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, jsonBody } from './admin-request';
import { AdminTokenGuard } from './admin-token.guard';
import { CancelSagaUseCase } from './usecases/cancel-saga.usecase';
import { ListSagasUseCase } from './usecases/list-sagas.usecase';
import { RetrySagaUseCase } from './usecases/retry-saga.usecase';
import { ShowSagaUseCase } from './usecases/show-saga.usecase';

/**
 * Sagas for operators: list (failed first), show with history, retry a failed one, cancel a running one. Bearer
 * ADMIN_TOKEN; retries and cancels are audited with `X-Hookrail-Operator`.
 */
@Controller('admin/sagas')
@UseGuards(AdminTokenGuard)
export class SagasAdminController {
  constructor(
    private readonly listSagas: ListSagasUseCase,
    private readonly showSaga: ShowSagaUseCase,
    private readonly retrySaga: RetrySagaUseCase,
    private readonly cancelSaga: CancelSagaUseCase,
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

  /** Body: `{reason?}`. */
  @Post(':id/cancel')
  @HttpCode(202)
  cancel(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.cancelSaga.execute(id, jsonBody(request), actorOf(request));
  }
}
