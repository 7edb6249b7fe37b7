import { waitFor } from '@app/testing';
import { Logger } from 'pino';
import { JobResult } from './exclusive-job';
import { scheduleJob } from './schedule-job';

/** Records what the schedule logs, level by level. */
function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) =>
    void lines.push({ level, fields, msg });
  return { lines, logger: { info: at('info'), debug: at('debug'), error: at('error') } as unknown as Logger };
}

describe('scheduleJob', () => {
  it('logs what a run did, a skip and a failure, and keeps going after the failure', async () => {
    const outcomes: Array<() => Promise<JobResult<{ affected: number; deleted: { a: number } }>>> = [
      async () => ({ ran: true, affected: 3, deleted: { a: 3 } }),
      async () => ({ ran: false, reason: 'locked' }),
      async () => Promise.reject(new Error('database went away')),
      async () => ({ ran: true, affected: 0, deleted: { a: 0 } }),
    ];
    const { lines, logger } = recordingLogger();
    let calls = 0;
    const schedule = scheduleJob('demo-retention', 5, () => outcomes[Math.min(calls++, outcomes.length - 1)](), logger);
    schedule.start(0);
    await waitFor(() => lines.length >= 4, { what: 'four runs logged' });
    await schedule.stop();

    expect(lines.slice(0, 4)).toEqual([
      { level: 'info', fields: { job: 'demo-retention', affected: 3, deleted: { a: 3 } }, msg: 'demo-retention ran' },
      { level: 'debug', fields: { job: 'demo-retention' }, msg: 'demo-retention skipped: another process runs it' },
      { level: 'error', fields: { job: 'demo-retention', err: 'database went away' }, msg: 'demo-retention failed' },
      { level: 'info', fields: { job: 'demo-retention', affected: 0, deleted: { a: 0 } }, msg: 'demo-retention ran' },
    ]);
  });

  it('logs an idle run at debug when asked to be quiet', async () => {
    const { lines, logger } = recordingLogger();
    let calls = 0;
    const schedule = scheduleJob(
      'demo-deadlines',
      5,
      async () => ({ ran: true, affected: calls++ === 1 ? 2 : 0 }),
      logger,
      { quietWhenIdle: true },
    );
    schedule.start(0);
    await waitFor(() => lines.length >= 3, { what: 'three runs logged' });
    await schedule.stop();
    expect(lines.slice(0, 3).map((line) => `${line.level} ${line.fields.affected}`)).toEqual([
      'debug 0',
      'info 2',
      'debug 0',
    ]);
  });
});
