import { QueryRows } from '@app/db';
import { Gauge, Registry } from 'prom-client';
import { JobScheduleRepository, JobStatus } from './job-schedule.repository';

/**
 * The dead man's switch in Prometheus: per job in job_schedules (whichever app runs it),
 * `hookrail_job_last_success_timestamp_seconds{scheduled_job}` and `hookrail_job_overdue{scheduled_job}`, read at
 * scrape time. Every app that runs jobs exports every job, so a job whose process died is still reported, by the
 * others. The label is not `job`, which Prometheus gives every scraped series (the target's job).
 */
export class JobMetrics {
  private cached?: { at: number; value: Promise<JobStatus[] | undefined> };

  constructor(
    registry: Registry,
    private readonly database: () => Promise<QueryRows>,
  ) {
    const jobs = () => this.jobs();
    new Gauge({
      name: 'hookrail_job_last_success_timestamp_seconds',
      help: 'When the scheduled job last succeeded (Unix time); absent until it has',
      labelNames: ['scheduled_job'],
      registers: [registry],
      async collect() {
        const current = await jobs();
        if (!current) return;
        this.reset();
        for (const job of current)
          if (job.lastSucceededAt) this.set({ scheduled_job: job.name }, job.lastSucceededAt.getTime() / 1000);
      },
    });
    new Gauge({
      name: 'hookrail_job_overdue',
      help: '1 when the scheduled job has not succeeded for longer than its interval times its grace, else 0',
      labelNames: ['scheduled_job'],
      registers: [registry],
      async collect() {
        const current = await jobs();
        if (!current) return;
        this.reset();
        for (const job of current) if (job.everyMs !== null) this.set({ scheduled_job: job.name }, job.overdue ? 1 : 0);
      },
    });
  }

  /** One query per scrape for both gauges; undefined (no series) while the database cannot be read. */
  private jobs(): Promise<JobStatus[] | undefined> {
    if (!this.cached || Date.now() - this.cached.at > 500) {
      this.cached = {
        at: Date.now(),
        value: this.database()
          .then((rows) => new JobScheduleRepository(rows).list())
          .catch(() => undefined),
      };
    }
    return this.cached.value;
  }
}
