import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AdminTokenGuard } from './admin-token.guard';
import { optionalPositiveInt } from './usecases/dead-letter-selection';
import { GetOperationsUseCase } from './usecases/get-operations.usecase';

/** Outbox backlog, consumer lag and the audit trail. Bearer ADMIN_TOKEN on every route. */
@Controller('admin')
@UseGuards(AdminTokenGuard)
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
