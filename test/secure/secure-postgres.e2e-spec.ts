import { AppProcess, cleanEnv, freePort, SecurePostgres, TestDatabase, uniqueName } from '@app/testing';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

const root = path.resolve(__dirname, '../..');
const bin = path.join(root, 'bin/hookrail');

type Run = { code: number; stdout: string; stderr: string };
const run = (file: string, args: string[], env: Record<string, string>) =>
  new Promise<Run>((resolve) =>
    execFile(file, args, { cwd: root, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );

/**
 * Postgres as a managed one is reached: only over TLS, verified against a CA file (`sslmode=verify-full`), with a
 * password, as a role that is no superuser (`scripts/db/pg-secure.sh`). `db:migrate` creates and migrates over it;
 * each way the connection is refused stops each program with one line that names what to change in DATABASE_URL,
 * never its password, never a stack trace. The whole path over it is in test/secure/secure-connections.
 */
describe('hookrail on a Postgres that takes only verified TLS with a password', () => {
  let postgres: SecurePostgres;
  let database: TestDatabase;
  let dir: string;
  const started: AppProcess[] = [];

  beforeAll(async () => {
    postgres = SecurePostgres.start();
    database = await postgres.createDatabase();
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-secure-pg-'));
  }, 120_000);

  afterAll(async () => {
    for (const child of started) child.signal('SIGKILL');
    await Promise.all(started.map((child) => child.exited));
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('db:migrate creates and migrates a database over verified TLS, as a role that is no superuser', async () => {
    const name = `${uniqueName('hookrail_test_migrate').replace(/[^a-z0-9_]/g, '_')}`;
    const url = postgres.url(name);
    const migrated = await run(process.execPath, ['scripts/run-built.js', 'libs/db/src/cli/migrate.command.ts'], {
      DATABASE_URL: url,
    });
    expect(migrated.stderr).not.toContain('failed');
    expect(migrated.stdout).toContain('db:migrate: created database');
    expect(migrated.stdout).not.toContain(postgres.password);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ ssl: boolean; superuser: string; migrations: number }>(
        `SELECT (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl,
                current_setting('is_superuser') AS superuser,
                (SELECT count(*)::int FROM typeorm_migrations) AS migrations`,
      );
      expect(rows[0]).toMatchObject({ ssl: true, superuser: 'off' });
      expect(rows[0].migrations).toBeGreaterThan(10);
      await client.query('SELECT 1');
    } finally {
      await client.end();
    }
    const admin = new Client({ connectionString: postgres.url('postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`).finally(() => admin.end());
  }, 120_000);

  /** Starts `app` on `url` and resolves with its exit and its output. */
  const refusal = async (app: 'ingress' | 'relay' | 'consumers', url: string) => {
    const sources = path.join(dir, 'sources.json');
    writeFileSync(sources, '[]');
    const child = AppProcess.start(
      app,
      cleanEnv({
        DATABASE_URL: url,
        HOOKRAIL_SOURCES: sources,
        ADMIN_TOKEN: 'a'.repeat(32),
        PORT: String(await freePort()),
        METRICS_PORT: '0',
        CONSUMER_GROUPS: 'ledger',
        DEAD_LETTER_STORE: 'false',
      }),
    );
    started.push(child);
    const exit = await Promise.race([
      child.exited,
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000).unref()),
    ]);
    return { exit, output: `${child.stdout}${child.stderr}` };
  };

  const expectOneLine = (output: string, line: RegExp) => {
    expect(output).toMatch(line);
    expect(output).not.toContain(postgres.password);
    expect(output).not.toMatch(/\n\s+at /);
  };

  it('stops each program with one line for a wrong password, an untrusted CA, a wrong host, no TLS and an unreadable CA file', async () => {
    const wrongPassword = await refusal(
      'relay',
      postgres.url(database.name, (url) => (url.password = 'not-the-password')),
    );
    expect(wrongPassword.exit).toEqual({ code: 1, signal: null });
    expectOneLine(
      wrongPassword.output,
      /relay: Postgres at 127\.0\.0\.1:5433 refuses the password of user hookrail \(DATABASE_URL\)/,
    );
    expect(wrongPassword.output).not.toContain('not-the-password');

    const untrusted = await refusal(
      'consumers',
      postgres.url(database.name, (url) => url.searchParams.set('sslrootcert', postgres.otherCaFile)),
    );
    expect(untrusted.exit).toEqual({ code: 1, signal: null });
    expectOneLine(
      untrusted.output,
      /consumers: the TLS certificate of Postgres at 127\.0\.0\.1:5433 is not trusted \(\w+\): sslrootcert in DATABASE_URL=\S+other-ca\.pem must hold the authority that signed it/,
    );

    // 127.0.0.2 reaches the same server, under a name its certificate does not carry.
    const wrongHost = await refusal(
      'ingress',
      postgres.url(database.name, (url) => (url.hostname = '127.0.0.2')),
    );
    expect(wrongHost.exit).toEqual({ code: 1, signal: null });
    expectOneLine(
      wrongHost.output,
      /ingress: the TLS certificate of Postgres at 127\.0\.0\.2:5433 does not name the host in DATABASE_URL/,
    );

    const noTls = await run(bin, ['dlq', 'list'], {
      DATABASE_URL: postgres.url(database.name, (url) => (url.search = '?sslmode=disable')),
    });
    expect(noTls.code).toBe(2);
    expectOneLine(
      noTls.stderr,
      /Postgres at 127\.0\.0\.1:5433 accepts only TLS connections: add sslmode=verify-full&sslrootcert=<its CA file> to DATABASE_URL/,
    );

    const unreadable = await run(process.execPath, ['scripts/run-built.js', 'libs/db/src/cli/migrate.command.ts'], {
      DATABASE_URL: postgres.url(database.name, (url) =>
        url.searchParams.set('sslrootcert', path.join(dir, 'no-such-ca.pem')),
      ),
    });
    expect(unreadable.code).toBe(1);
    expectOneLine(
      unreadable.stderr,
      /db:migrate: DATABASE_URL's sslrootcert=\S+no-such-ca\.pem cannot be read \(ENOENT\)/,
    );
  }, 300_000);
});
