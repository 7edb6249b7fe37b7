import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { AccessGuard } from './access/access.guard';
import { GetEventTrailUseCase } from './usecases/get-event-trail.usecase';
import { ListConsumerGroupsUseCase } from './usecases/list-consumer-groups.usecase';
import { ListJobsUseCase } from './usecases/list-jobs.usecase';

/** Scheduled jobs, consumer groups with their owners, and an event's trail. Bearer ADMIN_TOKEN on every route. */
@Controller('admin')
@UseGuards(AccessGuard)
export class OperationsViewsAdminController {
  constructor(
    private readonly listJobs: ListJobsUseCase,
    private readonly listConsumerGroups: ListConsumerGroupsUseCase,
    private readonly getEventTrail: GetEventTrailUseCase,
  ) {}

  @Get('jobs')
  jobs() {
    return this.listJobs.execute();
  }

  @Get('consumer-groups')
  consumerGroups() {
    return this.listConsumerGroups.execute();
  }

  /** `:ref` is an event id, a sender's event id or an aggregate id. */
  @Get('events/:ref')
  eventTrail(@Param('ref') ref: string) {
    return this.getEventTrail.execute(ref);
  }
}
