import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AccessGuard } from './access/access.guard';
import { optionalPositiveInt } from './usecases/dead-letter-selection';
import { GetOperationsUseCase } from './usecases/get-operations.usecase';

/** Outbox backlog, consumer lag and the audit trail. Bearer ADMIN_TOKEN on every route. */
@Controller('admin')
@UseGuards(AccessGuard)
export class OperationsAdminController {
  constructor(private readonly operations: GetOperationsUseCase) {}

  @Get('backlog')
  backlog() {
    return this.operations.backlog();
  }

  /** `?group=a&group=b` to pick groups (full group ids); the project's groups by default. */
  @Get('lag')
  lag(@Query('group') group?: string | string[]) {
    return this.operations.lag(group === undefined ? [] : Array.isArray(group) ? group : [group]);
  }

  @Get('audit')
  audit(@Query() query: Record<string, unknown>) {
    return this.operations.audit(optionalPositiveInt(query, 'limit', 1000) ?? 50);
  }
}
