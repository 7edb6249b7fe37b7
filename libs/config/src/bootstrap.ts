import { ConfigError } from './config-error';

/**
 * Runs an app's start function. A configuration error prints its one line and exits 1;
 * any other start failure prints the error and exits 1 too, so a supervisor sees a dead process, not a zombie.
 */
export function bootstrap(app: string, start: () => Promise<unknown>): void {
  start().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${app}: ${error.message}\n`);
    } else {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`${app}: failed to start: ${detail}\n`);
    }
    process.exit(1);
  });
}

export interface Closable {
  close(): Promise<void>;
}

/** How long an exit waits for the log to be written (a stream that never drains must not keep the process). */
const FLUSH_WAIT_MS = 2000;

/**
 * SIGTERM or SIGINT: close the app (finishing in-flight work, releasing locks), then exit 0.
 * A second signal at least a second later, while still closing, exits at once with 1. (Ctrl-C under a process
 * manager such as `npm start` delivers SIGINT twice within milliseconds: from the terminal and forwarded.)
 * `flush` writes out what the log holds before the process exits: an asynchronous logger (pino) may otherwise lose
 * its last lines, "stopped" among them, to `process.exit` on a busy machine.
 */
export function closeOnSignals(
  app: Closable,
  log: (message: string) => void,
  flush: (done: () => void) => void = (done) => done(),
): void {
  let closingSince = 0;
  const exit = (code: number) => {
    setTimeout(() => process.exit(code), FLUSH_WAIT_MS).unref();
    flush(() => process.exit(code));
  };
  const stop = (signal: NodeJS.Signals) => {
    if (closingSince > 0) {
      if (Date.now() - closingSince < 1000) return;
      log(`${signal} again while stopping; exiting now`);
      exit(1);
      return;
    }
    closingSince = Date.now();
    log(`${signal} received; stopping`);
    app.close().then(
      () => {
        log('stopped');
        exit(0);
      },
      (error: Error) => {
        log(`error while stopping: ${error.message}`);
        exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
