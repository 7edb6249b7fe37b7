import { SagaDetail } from '@app/saga';
import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, jsonBody } from './admin-request';
import { AccessGuard } from './access/access.guard';
import { Needs } from './access/needs.decorator';
import { CancelSagaUseCase } from './usecases/cancel-saga.usecase';
import { ListSagasUseCase } from './usecases/list-sagas.usecase';
import { RetrySagaUseCase } from './usecases/retry-saga.usecase';
import { ShowSagaUseCase } from './usecases/show-saga.usecase';

/**
 * Sagas for operators: list (failed first), show with history, retry a failed one, cancel a running one. They are the
 * `fulfilment` group's: reading needs a token that may read it, retries and cancels one that may act on it (audited
 * with the token's name).
 */
/** The consumer group whose sagas these are: the fulfilment saga's coordinator. */
const SAGA_GROUP = 'fulfilment';

@Controller('admin/sagas')
@UseGuards(AccessGuard)
export class SagasAdminController {
  constructor(
    private readonly listSagas: ListSagasUseCase,
    private readonly showSaga: ShowSagaUseCase,
    private readonly retrySaga: RetrySagaUseCase,
    private readonly cancelSaga: CancelSagaUseCase,
  ) {}

  /** Query: `state`, `type`, `correlationId` (the order id), `limit`, `offset`. */
  @Get()
  @Needs('read', SAGA_GROUP)
  list(@Query() query: Record<string, unknown>) {
    return this.listSagas.execute(query);
  }

  @Get(':id')
  @Needs('read', SAGA_GROUP)
  show(@Param('id') id: string): Promise<SagaDetail> {
    return this.showSaga.execute(id);
  }

  @Post(':id/retry')
  @Needs('operate', SAGA_GROUP)
  @HttpCode(202)
  retry(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.retrySaga.execute(id, actorOf(request));
  }

  /** Body: `{reason?}`. */
  @Post(':id/cancel')
  @Needs('operate', SAGA_GROUP)
  @HttpCode(202)
  cancel(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.cancelSaga.execute(id, jsonBody(request), actorOf(request));
  }
}
