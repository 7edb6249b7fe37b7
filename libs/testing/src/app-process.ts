import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { waitFor } from './wait-for';

const root = path.resolve(__dirname, '../../..');

export const APP_ENTRIES = {
  ingress: 'apps/ingress/src/main.ts',
  admin: 'apps/admin/src/main.ts',
  relay: 'apps/relay/src/main.ts',
  consumers: 'apps/consumers/src/main.ts',
} as const;

/** A real app process (what `npm run start:<app>` runs), with its output collected for assertions. */
export class AppProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(entry: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, ['-r', '@swc-node/register', entry], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  static start(app: keyof typeof APP_ENTRIES, env: NodeJS.ProcessEnv): AppProcess {
    return new AppProcess(APP_ENTRIES[app], env);
  }

  /** Parsed JSON log lines so far. */
  logLines(): Array<Record<string, unknown>> {
    return this.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** True once a log line with this message was written. */
  logged(msg: string): boolean {
    return this.logLines().some((line) => line.msg === msg);
  }

  /**
   * Waits for a log line with this message. Apps start slowly on a busy machine (topics, group joins), hence the
   * long default; a timeout says whether the process is still running and shows the end of its output.
   */
  async waitForLog(msg: string, timeoutMs = 45_000): Promise<void> {
    try {
      await waitFor(() => this.logged(msg), { what: `log line "${msg}"`, timeoutMs });
    } catch (error) {
      const state =
        this.child.exitCode === null && this.child.signalCode === null
          ? 'still running'
          : `exited (${this.child.exitCode ?? this.child.signalCode})`;
      const tail = (this.stdout + this.stderr).trim().split('\n').slice(-15).join('\n');
      throw new Error(`${(error as Error).message}; the process is ${state}; its last output:\n${tail}`);
    }
  }

  signal(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}

/** The environment of the test run without anything that would change an app's configuration. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const {
    DATABASE_URL: _db,
    HOOKRAIL_SOURCES: _sources,
    ADMIN_TOKEN: _token,
    PORT: _port,
    CONSUMER_GROUPS: _groups,
    ...rest
  } = process.env;
  // A test or benchmark makes its own topics (a namespace of its own each run): its consumers create them.
  return { KAFKA_CREATE_TOPICS: 'true', ...rest, LOG_LEVEL: 'info', ...extra };
}

/** The app processes one test file starts; `killAll()` in afterAll ends whatever a failed test left running. */
export class TestProcesses {
  private readonly started: AppProcess[] = [];

  start(app: keyof typeof APP_ENTRIES, env: Record<string, string>): AppProcess {
    const child = AppProcess.start(app, cleanEnv(env));
    this.started.push(child);
    return child;
  }

  async killAll(): Promise<void> {
    for (const child of this.started) child.signal('SIGKILL');
    await Promise.all(this.started.map((child) => child.exited));
  }
}
