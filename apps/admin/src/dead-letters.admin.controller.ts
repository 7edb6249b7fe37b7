import { DeadLetterDetail } from '@app/dead-letters';
import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { actorOf, jsonBody } from './admin-request';
import { AdminTokenGuard } from './admin-token.guard';
import { ChangeDeadLettersUseCase } from './usecases/change-dead-letters.usecase';
import { ListDeadLettersUseCase } from './usecases/list-dead-letters.usecase';
import { ShowDeadLetterUseCase } from './usecases/show-dead-letter.usecase';

/** Dead letters for operators: list, show, replay, purge. Bearer ADMIN_TOKEN on every route. */
@Controller('admin/dead-letters')
@UseGuards(AdminTokenGuard)
export class DeadLettersAdminController {
  constructor(
    private readonly listDeadLetters: ListDeadLettersUseCase,
    private readonly showDeadLetter: ShowDeadLetterUseCase,
    private readonly changeDeadLetters: ChangeDeadLettersUseCase,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>) {
    return this.listDeadLetters.execute(query);
  }

  @Get(':id')
  show(@Param('id') id: string): Promise<DeadLetterDetail> {
    return this.showDeadLetter.execute(id);
  }

  /** Body: `{ids?, group?, type?, errorClass?, key?, eventId?, since?, until?, all?, dryRun?, limit?, rate?}`. */
  @Post('replay')
  @HttpCode(200)
  replay(@Req() request: FastifyRequest) {
    return this.changeDeadLetters.execute({ action: 'replay', actor: actorOf(request), body: jsonBody(request) });
  }

  @Post('purge')
  @HttpCode(200)
  purge(@Req() request: FastifyRequest) {
    return this.changeDeadLetters.execute({ action: 'purge', actor: actorOf(request), body: jsonBody(request) });
  }

  @Post(':id/replay')
  @HttpCode(200)
  replayOne(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.changeDeadLetters.execute({
      action: 'replay',
      actor: actorOf(request),
      body: { ...jsonBody(request), ids: [id] },
    });
  }

  @Post(':id/purge')
  @HttpCode(200)
  purgeOne(@Param('id') id: string, @Req() request: FastifyRequest) {
    return this.changeDeadLetters.execute({
      action: 'purge',
      actor: actorOf(request),
      body: { ...jsonBody(request), ids: [id] },
    });
  }
}
