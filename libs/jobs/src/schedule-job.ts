import { errorMessage } from '@app/logger';
import { Logger } from 'pino';
import { JobOutcome, JobResult } from './exclusive-job';
import { JobSchedule } from './job-schedule';

/**
 * A schedule (not yet started) that runs an exclusive job every `everyMs` and logs each outcome: one line with what
 * it did, a debug line when another process held the job, an error line when it failed (its heartbeat records the
 * error too). The schedule goes on after a failure. `quietWhenIdle`: a run that affected nothing logs at debug (a job
 * that runs every second and mostly finds nothing to do).
 */
export function scheduleJob<T extends JobOutcome>(
  job: string,
  everyMs: number,
  run: () => Promise<JobResult<T>>,
  logger: Logger,
  { quietWhenIdle = false }: { quietWhenIdle?: boolean } = {},
): JobSchedule {
  return new JobSchedule(everyMs, async () => {
    try {
      const result = await run();
      if (!result.ran) return void logger.debug({ job }, `${job} skipped: another process runs it`);
      const { ran: _ran, ...outcome } = result;
      const fields: Record<string, unknown> = { job, ...outcome };
      if (quietWhenIdle && outcome.affected === 0) logger.debug(fields, `${job} ran`);
      else logger.info(fields, `${job} ran`);
    } catch (error) {
      logger.error({ job, err: errorMessage(error) }, `${job} failed`);
    }
  });
}
