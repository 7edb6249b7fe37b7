import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { AccessGuard } from './access/access.guard';
import { ListSourcesUseCase } from './usecases/list-sources.usecase';

/** The senders and the deliveries rejected of each (headers without secrets, a redacted body prefix). Bearer ADMIN_TOKEN. */
@Controller('admin/sources')
@UseGuards(AccessGuard)
export class SourcesAdminController {
  constructor(private readonly listSources: ListSourcesUseCase) {}

  @Get()
  list() {
    return this.listSources.list();
  }

  /** Query: `limit` (1 to REJECTIONS_KEPT_PER_SOURCE, default all kept). */
  @Get(':name/rejections')
  rejections(@Param('name') name: string, @Query() query: Record<string, unknown>) {
    return this.listSources.rejections(name, query);
  }
}
