import { createTestDatabase, TestDatabase, uniqueName, waitFor } from '@app/testing';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The README's first hour, as a user runs it: `npm start` in one shell, then in a second one the signed webhook, the
 * CLI and an outbound endpoint on the development receiver, with no variable the README does not give (each run
 * gets its own database, topic namespace, sources file and profile file so that it leaves a developer's alone). Then
 * one Ctrl-C.
 */
const root = path.resolve(__dirname, '../..');
const START_MS = 240_000;

/** The pids of the processes started with this environment variable's value (the apps npm start runs). */
function processesWith(variable: string, command: RegExp): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        return environ.includes(variable) && command.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('npm start, and the README’s walk-through in a second shell', () => {
  let database: TestDatabase;
  let start: ChildProcess;
  let output = '';
  const dir = mkdtempSync(path.join(tmpdir(), 'hookrail-start-'));
  const profile = path.join(dir, 'dev.env');
  const namespace = `${uniqueName('start')}.`;
  /** The example sources file, its topic under this run's namespace (as a namespaced installation's must be). */
  const sources = path.join(dir, 'sources.json');
  writeFileSync(
    sources,
    JSON.stringify(
      (
        JSON.parse(readFileSync(path.join(root, 'config/sources.example.json'), 'utf8')) as Array<{ topic: string }>
      ).map((source) => ({ ...source, topic: `${namespace}${source.topic}` })),
    ),
  );
  /** What both shells share: where the installation is. Nothing else. */
  const shared = (): NodeJS.ProcessEnv => {
    const env = { ...process.env };
    for (const name of Object.keys(env))
      if (
        /^(ADMIN_TOKEN|SHOP_WEBHOOK_SECRET|OUTBOUND_WEBHOOKS_|HOOKRAIL_SOURCES|PORT$|ADMIN_PORT|METRICS_PORT)/.test(
          name,
        )
      )
        delete env[name];
    return {
      ...env,
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      KAFKA_NAMESPACE: namespace,
      HOOKRAIL_SOURCES: sources,
      HOOKRAIL_DEV_ENV: profile,
    };
  };
  /** waitFor, whose failure shows the end of what npm start printed. */
  const until = <T>(probe: () => Promise<T> | T, timeoutMs: number, what: string) =>
    waitFor(probe, { timeoutMs, intervalMs: 250, what }).catch((error: Error) => {
      throw new Error(`${error.message}; npm start's last output:\n${output.slice(-3000)}`);
    });
  const shell = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { cwd: root, env: shared(), encoding: 'utf8', timeout: 120_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    // Detached: its own process group, which a terminal's Ctrl-C signals as a whole.
    start = spawn('npm', ['start'], { cwd: root, env: shared(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    start.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    start.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  }, 30_000);

  afterAll(async () => {
    const kill = (pid: number) => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    kill(-start.pid!);
    processesWith(`HOOKRAIL_DEV_ENV=${profile}`, /./).forEach(kill);
    await database.drop();
  });

  it(
    'starts everything, prints a ready banner with the console and the kept secrets, and works as the README says',
    async () => {
      await until(() => output.includes('hookrail is ready'), START_MS, 'the ready banner');
      const kept = Object.fromEntries(
        readFileSync(profile, 'utf8')
          .split('\n')
          .filter((line) => /^[A-Z]/.test(line))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      expect(statSync(profile).mode & 0o777).toBe(0o600);
      expect(kept).toMatchObject({ DATABASE_URL: database.url, OUTBOUND_WEBHOOKS_ALLOW_PORTS: '4014' });
      expect(output).toContain(`admin token   ${kept.ADMIN_TOKEN}`);
      expect(output).toContain('http://127.0.0.1:3100/admin');

      // The second shell: the README's commands as written.
      const sent = shell('npm', ['run', '--silent', 'webhook:send']);
      expect(sent).toMatchObject({ code: 0, stdout: expect.stringContaining('→ 202') });
      const hookrail = (...args: string[]) => shell(process.execPath, [path.join(root, 'bin/hookrail'), ...args]);
      const eventId = /"id":"([0-9a-f-]{36})"/.exec(sent.stdout)?.[1];
      const token = JSON.parse(hookrail('tokens', 'create', 'me', '--role', 'viewer', '--json').stdout).token;
      const status = await fetch(`http://127.0.0.1:3000/events/${eventId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(status.status).toBe(200);
      expect(hookrail('customers', 'add', 'shop_lovelace', '--name', 'Lovelace Books')).toMatchObject({ code: 0 });
      const added = hookrail(
        'endpoints',
        'add',
        'http://127.0.0.1:4014/hooks/orders',
        '--event-type',
        'shop.order.*',
        '--customer',
        'shop_lovelace',
      );
      expect(added).toMatchObject({ code: 0, stdout: expect.stringContaining('signing secret') });
      const link = hookrail('customers', 'portal-link', 'shop_lovelace');
      expect(link).toMatchObject({ code: 0, stdout: expect.stringContaining('http://127.0.0.1:3200/portal#link=') });
      const lag = shell(process.execPath, [path.join(root, 'bin/hookrail'), 'lag']);
      expect(lag).toMatchObject({ code: 0, stdout: expect.stringContaining(`${namespace}notifier`) });
      const again = shell('npm', ['run', '--silent', 'webhook:send', '--', 'shop.order.paid.v1']);
      const orderId = /"orderId":"(ord_[0-9a-f]+)"/.exec(again.stdout)?.[1] ?? again.stdout;
      await until(
        async () =>
          (await fetch('http://127.0.0.1:4014/v1/webhooks').then((response) => response.text())).includes(orderId),
        60_000,
        `${orderId} at the development receiver`,
      );
      const backlog = await fetch('http://127.0.0.1:3100/admin/backlog', {
        headers: { authorization: `Bearer ${kept.ADMIN_TOKEN}` },
      });
      expect(backlog.status).toBe(200);
      // The public port takes webhooks and nothing of the operator plane.
      expect((await fetch('http://127.0.0.1:3000/admin/backlog')).status).toBe(404);
    },
    START_MS + 120_000,
  );

  it('starts an app again when it dies, and stops every app gracefully on one Ctrl-C', async () => {
    const consumers = () => processesWith(`HOOKRAIL_DEV_ENV=${profile}`, /apps\/consumers\/src\/main/);
    const [pid] = consumers();
    expect(pid).toBeDefined();
    process.kill(pid, 'SIGKILL');
    await until(() => consumers().length === 1 && consumers()[0] !== pid, 30_000, 'the consumers started again');
    await until(
      () =>
        fetch('http://127.0.0.1:9465/readyz').then(
          (response) => response.ok,
          () => false,
        ),
      120_000,
      'the restarted consumers ready',
    );

    const stopping = output.length;
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      start.once('exit', (code, signal) => resolve([code, signal])),
    );
    process.kill(-start.pid!, 'SIGINT');
    // npm itself ends by the signal, as on a terminal; what it ran stops on its own, gracefully.
    expect([
      [0, null],
      [null, 'SIGINT'],
    ]).toContainEqual(await exited);
    await until(() => processesWith(`HOOKRAIL_DEV_ENV=${profile}`, /./).length === 0, 60_000, 'every process stopped');
    const stop = output.slice(stopping);
    for (const app of ['ingress', 'admin', 'relay', 'consumers']) {
      // Each app's own lines, so that a failure shows how that app stopped.
      const lines = stop.split('\n').filter((line) => line.startsWith(`[${app}]`));
      expect({ app, lines }).toEqual({
        app,
        lines: expect.arrayContaining([
          expect.stringMatching(/SIGINT received; stopping/),
          expect.stringMatching(/"stopped"|\bstopped\b/),
        ]),
      });
      expect(lines.filter((line) => line.includes('SIGINT received; stopping'))).toHaveLength(1);
    }
    expect(stop).not.toContain('again while stopping');
  }, 240_000);
});
