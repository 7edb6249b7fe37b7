import { DeadLetterDetail } from '@app/dead-letters';
import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { AccessGuard, identityOf } from './access/access.guard';
import { Needs } from './access/needs.decorator';
import { actorOf, jsonBody } from './admin-request';
import { ChangeCommand, ChangeDeadLettersUseCase } from './usecases/change-dead-letters.usecase';
import { ListDeadLettersUseCase } from './usecases/list-dead-letters.usecase';
import { ShowDeadLetterUseCase } from './usecases/show-dead-letter.usecase';

/**
 * Dead letters for operators: list, show, replay (the operator role), purge (the admin role). A token limited to
 * groups sees, replays and purges its groups' dead letters only; another group's is a 403 naming it.
 */
@Controller('admin/dead-letters')
@UseGuards(AccessGuard)
export class DeadLettersAdminController {
  constructor(
    private readonly listDeadLetters: ListDeadLettersUseCase,
    private readonly showDeadLetter: ShowDeadLetterUseCase,
    private readonly changeDeadLetters: ChangeDeadLettersUseCase,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest) {
    return this.listDeadLetters.execute(query, identityOf(request));
  }

  @Get(':id')
  show(@Param('id') id: string, @Req() request: FastifyRequest): Promise<DeadLetterDetail> {
    return this.showDeadLetter.execute(id, identityOf(request));
  }

  /** Body: `{ids?, group?, type?, errorClass?, key?, eventId?, since?, until?, all?, dryRun?, limit?, rate?}`. */
  @Post('replay')
  @HttpCode(200)
  replay(@Req() request: FastifyRequest) {
    return this.changeDeadLetters.execute(this.command('replay', request));
  }

  @Post('purge')
  @Needs('administer')
  @HttpCode(200)
  purge(@Req() request: FastifyRequest) {
    return this.changeDeadLetters.execute(this.command('purge', request));
  }

  @Post(':id/replay')
  @HttpCode(200)
  async replayOne(@Param('id') id: string, @Req() request: FastifyRequest) {
    await this.showDeadLetter.execute(id, identityOf(request), 'operate');
    return this.changeDeadLetters.execute(this.command('replay', request, id));
  }

  @Post(':id/purge')
  @Needs('administer')
  @HttpCode(200)
  async purgeOne(@Param('id') id: string, @Req() request: FastifyRequest) {
    await this.showDeadLetter.execute(id, identityOf(request), 'administer');
    return this.changeDeadLetters.execute(this.command('purge', request, id));
  }

  private command(action: ChangeCommand['action'], request: FastifyRequest, id?: string): ChangeCommand {
    const body = jsonBody(request);
    return {
      action,
      actor: actorOf(request),
      identity: identityOf(request),
      body: id === undefined ? body : { ...body, ids: [id] },
    };
  }
}
