import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AccessGuard } from './access/access.guard';
import { BreakerView, ListBreakersUseCase } from './usecases/list-breakers.usecase';

/** The consumer groups' circuit breakers: which dependency is down for which group, since when. Bearer ADMIN_TOKEN. */
@Controller('admin/breakers')
@UseGuards(AccessGuard)
export class BreakersAdminController {
  constructor(private readonly listBreakers: ListBreakersUseCase) {}

  /** `?state=open` for the open ones only; all by default. */
  @Get()
  list(@Query('state') state?: string): Promise<BreakerView[]> {
    return this.listBreakers.execute(state);
  }
}
