import { errorMessage } from '@app/logger';
import { Logger } from 'pino';
import { JobOutcome, JobResult } from './exclusive-job';
import { JobSchedule } from './job-schedule';
import { ScheduledRun } from './scheduled-run';

/** A job is overdue once its last success is older than its interval times this. */
export const DEFAULT_JOB_GRACE = 2;

export interface ScheduleJobOptions {
  /** Overdue after `everyMs × grace` without a success (default 2). */
  grace?: number;
  /** `debug` for jobs that run every few seconds and would fill the log with their `ran` lines (default `info`). */
  logRunsAt?: 'info' | 'debug';
  /** A run that affected nothing logs at debug (a job that runs every second and mostly finds nothing to do). */
  quietWhenIdle?: boolean;
}

/**
 * A schedule (not yet started) that runs an exclusive job every `everyMs` and logs each outcome: one line with what
 * it did, a debug line when another process held the job or it was not due, an error line when it failed (its
 * heartbeat records the error too). The schedule goes on after a failure.
 *
 * Each tick's `run` gets the schedule, and hands it to the `runExclusiveJob` it calls, which registers the job with its
 * interval (job_schedules: the dead man's switch that `/metrics`, `/admin/jobs` and `hookrail jobs` watch) and runs
 * only when it is due. The first tick comes within seconds of `start()`: a job that was due while the process was down
 * runs then, once; one that ran recently waits for its due time. Times are the database's (UTC timestamps).
 */
export function scheduleJob<T extends JobOutcome>(
  job: string,
  everyMs: number,
  run: (schedule: ScheduledRun) => Promise<JobResult<T>>,
  logger: Logger,
  options: ScheduleJobOptions = {},
): JobSchedule {
  const context: ScheduledRun = {
    everyMs,
    grace: options.grace ?? DEFAULT_JOB_GRACE,
    app: String(logger.bindings?.().app ?? 'unknown'),
  };
  const logRun = options.logRunsAt === 'debug' ? logger.debug.bind(logger) : logger.info.bind(logger);
  // Instances started together spread their first ticks over a few seconds (at most a tenth of the interval).
  const firstInMs = () => Math.round(Math.random() * Math.min(3000, everyMs / 10));
  const schedule = new JobSchedule(
    everyMs,
    async () => {
      try {
        const result = await run(context);
        if (!result.ran && result.reason === 'not-due') {
          logger.debug({ job, dueInMs: result.dueInMs }, `${job} not due yet`);
          return { nextInMs: result.dueInMs + Math.round(Math.random() * Math.min(3000, everyMs / 20)) };
        }
        if (!result.ran) return void logger.debug({ job }, `${job} skipped: another process runs it`);
        const { ran: _ran, ...outcome } = result;
        const fields: Record<string, unknown> = { job, ...outcome };
        if (options.quietWhenIdle && outcome.affected === 0) logger.debug(fields, `${job} ran`);
        else logRun(fields, `${job} ran`);
      } catch (error) {
        logger.error({ job, err: errorMessage(error) }, `${job} failed`);
      }
    },
    firstInMs(),
  );
  return schedule;
}
