import { Database, managerRows } from '@app/db';
import { describeInterval, JobScheduleRepository, JobStatus } from '@app/jobs';
import { Injectable } from '@nestjs/common';

/** GET /admin/jobs: every scheduled job (whichever app runs it) with its last run, overdue ones first. */
@Injectable()
export class ListJobsUseCase {
  constructor(private readonly database: Database) {}

  async execute(): Promise<Array<JobStatus & { schedule: string | null }>> {
    const jobs = await new JobScheduleRepository(managerRows((await this.database.connection()).manager)).list();
    return jobs
      .map((job) => ({ ...job, schedule: job.everyMs === null ? null : `every ${describeInterval(job.everyMs)}` }))
      .sort((a, b) => Number(b.overdue) - Number(a.overdue) || a.name.localeCompare(b.name));
  }
}
