/**
 * What a schedule tells the exclusive jobs it runs: their expected interval, grace and app. `scheduleJob` hands it to
 * each tick's run, which passes it on to `runExclusiveJob`: the job is then registered with this interval and runs
 * only when it is due; without it (a test, a one-off command) the job just runs. A parameter rather than an
 * AsyncLocalStorage: the latter turns on Node's promise hooks for the whole process, about a tenth of the consumers'
 * CPU under load.
 */
export interface ScheduledRun {
  everyMs: number;
  grace: number;
  app: string;
}
