import { managerRows } from '@app/db/light';
import { describeInterval, JobScheduleRepository, JobStatus } from '@app/jobs';
import { CliContext } from '../cli-context';
import { CommandRefusedError, UsageError } from '../cli-errors';
import { formatTable } from '../output/table';

/**
 * `hookrail jobs`: every scheduled job (whichever app runs it), overdue ones first: schedule, last run, last success,
 * duration, rows, last error. Exits 1 when one is overdue, so that a script or a cron check can alert on it.
 * `hookrail jobs forget <name>`: drop a job that no process runs any more, so that it stops counting as overdue.
 */
export async function jobsCommand(
  ctx: CliContext,
  action: string | undefined,
  names: string[],
  options: { json: boolean },
): Promise<number> {
  const jobs = new JobScheduleRepository(managerRows((await ctx.database()).manager));
  if (action === 'forget') {
    if (names.length !== 1) throw new UsageError('jobs forget takes one job name');
    if (!(await jobs.forget(names[0]))) throw new CommandRefusedError(`no job named ${names[0]}`);
    ctx.out(`forgot job ${names[0]} (a process that still schedules it registers it again at its next tick)`);
    return 0;
  }
  if (action !== undefined) throw new UsageError(`unknown jobs command "${action}"`);
  const list = (await jobs.list()).sort(
    (a, b) => Number(b.overdue) - Number(a.overdue) || a.name.localeCompare(b.name),
  );
  if (options.json) ctx.out(JSON.stringify(list, null, 2));
  else ctx.out(formatTable(list.map(row), [...COLUMNS]));
  return list.some((job) => job.overdue) ? 1 : 0;
}

const COLUMNS = [
  'name',
  'app',
  'schedule',
  'lastRun',
  'lastSuccess',
  'duration',
  'rows',
  'nextDue',
  'overdue',
  'lastError',
] as const;

function row(job: JobStatus): Record<(typeof COLUMNS)[number], unknown> {
  return {
    name: job.name,
    app: job.app ?? '',
    schedule: job.everyMs === null ? 'not scheduled' : `every ${describeInterval(job.everyMs)}`,
    lastRun: job.lastStartedAt,
    lastSuccess: job.lastSucceededAt,
    duration: job.lastDurationMs === null ? '' : `${job.lastDurationMs} ms`,
    rows: job.lastAffected,
    nextDue: job.nextDueAt,
    overdue: job.overdue ? `OVERDUE since ${job.overdueSince!.toISOString().replace(/\.\d{3}Z$/, 'Z')}` : 'no',
    lastError: job.lastError ?? '',
  };
}
