import { ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

export interface ExitRecord {
  process: string;
  at: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** It had printed its ready line before it exited. */
  afterReady: boolean;
}

/**
 * One app or provider of the run, from the build (`dist/`), as a child process writing straight into its log file
 * (the run reads the file, so no app output passes through the run's own event loop). It plays its own supervisor:
 * a process that exits without being told to (a failed start while Postgres is down, a crash) is started again a
 * second later, and the exit is recorded; `kill9` and `stop` are the run's own.
 */
export class ManagedProcess {
  readonly exits: ExitRecord[] = [];
  starts = 0;
  private child?: ChildProcess;
  private readyAt = 0;
  private expectingExit = false;
  private restartTimer?: NodeJS.Timeout;
  private readyPoll?: NodeJS.Timeout;

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logFile: string,
    private readonly readyLine: string,
    /** Node flags before the entry: an app's heap limits, as its start script sets them. */
    private readonly nodeArgs: string[] = [],
  ) {
    appendFileSync(logFile, '');
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get ready(): boolean {
    return this.running && this.readyAt > 0;
  }

  start(): void {
    if (this.running) return;
    clearTimeout(this.restartTimer);
    this.starts++;
    this.readyAt = 0;
    this.expectingExit = false;
    appendFileSync(this.logFile, `\n--- start ${this.starts} at ${new Date().toISOString()} ---\n`);
    const mark = this.logMark();
    const log = openSync(this.logFile, 'a');
    const child = spawn(process.execPath, [...this.nodeArgs, path.join(root, 'dist', this.entry)], {
      cwd: root,
      env: this.env,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.child = child;
    clearInterval(this.readyPoll);
    this.readyPoll = setInterval(() => {
      if (this.child !== child || !this.running) return clearInterval(this.readyPoll);
      if (!this.loggedSince(mark).includes(this.readyLine)) return;
      this.readyAt = Date.now();
      clearInterval(this.readyPoll);
    }, 250);
    child.once('exit', (code, signal) => {
      appendFileSync(this.logFile, `\n--- exit ${code ?? signal} at ${new Date().toISOString()} ---\n`);
      if (this.expectingExit || this.child !== child) return;
      this.exits.push({ process: this.name, at: Date.now(), code, signal, afterReady: this.readyAt > 0 });
      this.restartTimer = setTimeout(() => this.start(), 1000);
    });
  }

  /** Where its log ends now. */
  logMark(): number {
    return statSync(this.logFile).size;
  }

  /** What it logged since `mark`. */
  loggedSince(mark: number): string {
    const size = statSync(this.logFile).size;
    if (size <= mark) return '';
    const buffer = Buffer.alloc(size - mark);
    const fd = openSync(this.logFile, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, mark);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8');
  }

  /** `kill -9`; resolves once it is gone. */
  async kill9(): Promise<void> {
    await this.end('SIGKILL');
  }

  /** SIGTERM, then SIGKILL after `graceMs`; no restart. */
  async stop(graceMs = 10_000): Promise<void> {
    clearTimeout(this.restartTimer);
    clearInterval(this.readyPoll);
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    await this.end('SIGTERM');
    clearTimeout(timer);
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || !this.running) return;
    this.expectingExit = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}

/** Waits until every process printed its ready line, or throws naming those that did not. */
export async function waitReady(processes: ManagedProcess[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (processes.some((process) => !process.ready)) {
    if (Date.now() > deadline) {
      const late = processes.filter((process) => !process.ready).map((process) => process.name);
      throw new Error(`not ready after ${timeoutMs} ms: ${late.join(', ')} (see their logs)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
