import { AsyncLocalStorage } from 'node:async_hooks';

/** What a schedule tells the exclusive jobs it runs: their expected interval, grace and app. */
export interface ScheduledRun {
  everyMs: number;
  grace: number;
  app: string;
}

/**
 * Set by `scheduleJob` around each tick. `runExclusiveJob` called inside it registers the job with this interval and
 * runs it only when it is due; called outside (a test, a one-off command) it just runs.
 */
export const scheduledRun = new AsyncLocalStorage<ScheduledRun>();
