import { AppProcess, cleanEnv, createTestDatabase, TestDatabase } from '@app/testing';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Starting an app waits up to 45 s for its start line (a busy machine); stopping it gets the rest. */
const BOOT_TEST_TIMEOUT_MS = 90_000;

describe('the four apps as processes', () => {
  let database: TestDatabase;
  const sources = path.join(os.tmpdir(), `hookrail-boot-sources-${process.pid}.json`);

  beforeAll(async () => {
    database = await createTestDatabase();
    writeFileSync(sources, '[]');
  });

  afterAll(() => database.drop());

  it.each(['ingress', 'admin', 'relay', 'consumers'] as const)(
    '%s exits 1 with one line naming a missing DATABASE_URL',
    async (app) => {
      const child = AppProcess.start(app, cleanEnv({ HOOKRAIL_SOURCES: sources, ADMIN_TOKEN: 'a'.repeat(32) }));
      const { code } = await child.exited;
      expect(code).toBe(1);
      expect(child.stderr.trim().split('\n')).toEqual([
        `${app}: configuration error: DATABASE_URL is required but not set`,
      ]);
    },
  );

  it('ingress exits 1 with one line naming every problem of its environment and of its sources file', async () => {
    const badSources = path.join(os.tmpdir(), `hookrail-boot-bad-sources-${process.pid}.json`);
    writeFileSync(badSources, JSON.stringify([{ name: 'shop', scheme: 'carrier-pigeon', secrets: [], topic: 'x' }]));
    const child = AppProcess.start('ingress', cleanEnv({ HOOKRAIL_SOURCES: badSources, PORT: 'eighty' }));
    const { code } = await child.exited;
    expect(code).toBe(1);
    const lines = child.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ingress: configuration error \(\d+ problems\): /);
    for (const problem of ['DATABASE_URL is required', 'PORT is invalid', 'source #1 (shop)'])
      expect(lines[0]).toContain(problem);
  });

  it('admin exits 1 with one line naming a missing ADMIN_TOKEN and a bad ADMIN_PORT', async () => {
    const child = AppProcess.start('admin', cleanEnv({ DATABASE_URL: database.url, ADMIN_PORT: 'eighty' }));
    const { code } = await child.exited;
    expect(code).toBe(1);
    const lines = child.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^admin: configuration error \(2 problems\): /);
    for (const problem of ['ADMIN_TOKEN is required', 'ADMIN_PORT is invalid']) expect(lines[0]).toContain(problem);
  });

  it.each(['ingress', 'admin', 'relay', 'consumers'] as const)(
    '%s exits 1 naming a malformed DATABASE_URL',
    async (app) => {
      const child = AppProcess.start(
        app,
        cleanEnv({ DATABASE_URL: 'not a url', HOOKRAIL_SOURCES: sources, ADMIN_TOKEN: 'a'.repeat(32) }),
      );
      const { code } = await child.exited;
      expect(code).toBe(1);
      expect(child.stderr.trim()).toMatch(
        new RegExp(`^${app}: configuration error: DATABASE_URL is invalid: [^\\n]+$`),
      );
    },
  );

  it.each(['relay', 'consumers'] as const)(
    '%s logs that it started and stops cleanly on SIGTERM',
    async (app) => {
      const child = AppProcess.start(app, cleanEnv({ DATABASE_URL: database.url }));
      await child.waitForLog(`${app} started`);
      child.signal('SIGTERM');
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.logged('stopped')).toBe(true);
    },
    BOOT_TEST_TIMEOUT_MS,
  );

  it(
    'relay stops gracefully when Ctrl-C delivers SIGINT twice at once (terminal and process manager)',
    async () => {
      const child = AppProcess.start('relay', cleanEnv({ DATABASE_URL: database.url, METRICS_PORT: '0' }));
      await child.waitForLog('relay started');
      child.signal('SIGINT');
      child.signal('SIGINT');
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.logged('stopped')).toBe(true);
    },
    BOOT_TEST_TIMEOUT_MS,
  );

  it(
    'ingress serves GET /healthz and stops cleanly on SIGTERM',
    async () => {
      const port = String(20000 + (process.pid % 10000));
      const child = AppProcess.start(
        'ingress',
        cleanEnv({ DATABASE_URL: database.url, HOOKRAIL_SOURCES: sources, ADMIN_TOKEN: 'a'.repeat(32), PORT: port }),
      );
      await child.waitForLog('ingress started');
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
      child.signal('SIGTERM');
      expect(await child.exited).toEqual({ code: 0, signal: null });
    },
    BOOT_TEST_TIMEOUT_MS,
  );
});

describe('the admin app as a process', () => {
  let database: TestDatabase;
  beforeAll(async () => (database = await createTestDatabase()));
  afterAll(() => database.drop());

  it(
    'serves /healthz and /admin on its own port, on loopback by default, and stops cleanly on SIGTERM',
    async () => {
      const port = String(21000 + (process.pid % 10000));
      const child = AppProcess.start(
        'admin',
        cleanEnv({ DATABASE_URL: database.url, ADMIN_TOKEN: 'a'.repeat(32), ADMIN_PORT: port, PORTAL_PORT: '0' }),
      );
      await child.waitForLog('admin started');
      expect(child.logLines().find((line) => line.msg === 'admin started')).toMatchObject({ host: '127.0.0.1' });
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/admin/backlog`)).status).toBe(401);
      child.signal('SIGTERM');
      expect(await child.exited).toEqual({ code: 0, signal: null });
    },
    BOOT_TEST_TIMEOUT_MS,
  );
});

describe('ingress with a bad sources file', () => {
  it('exits 1 with one line naming the file and the problem', async () => {
    const sources = path.join(os.tmpdir(), `hookrail-bad-sources-${process.pid}.json`);
    writeFileSync(
      sources,
      JSON.stringify([
        {
          name: 'shop',
          scheme: 'standard-webhooks',
          secrets: ['env:HOOKRAIL_TEST_UNSET_SECRET'],
          topic: 'shop.orders',
        },
      ]),
    );
    const child = AppProcess.start(
      'ingress',
      cleanEnv({
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x',
        HOOKRAIL_SOURCES: sources,
        ADMIN_TOKEN: 'a'.repeat(32),
      }),
    );
    expect((await child.exited).code).toBe(1);
    expect(child.stderr.trim().split('\n')).toEqual([
      `ingress: configuration error: HOOKRAIL_SOURCES ${sources}: source #1 (shop): secrets[0] refers to environment variable HOOKRAIL_TEST_UNSET_SECRET, which is not set`,
    ]);
  });

  it('exits 1 naming a standard-webhooks secret that is not valid base64', async () => {
    const sources = path.join(os.tmpdir(), `hookrail-bad-secret-${process.pid}.json`);
    writeFileSync(
      sources,
      JSON.stringify([{ name: 'shop', scheme: 'standard-webhooks', secrets: ['whsec_%%%'], topic: 'shop.orders' }]),
    );
    const child = AppProcess.start(
      'ingress',
      cleanEnv({
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x',
        HOOKRAIL_SOURCES: sources,
        ADMIN_TOKEN: 'a'.repeat(32),
      }),
    );
    expect((await child.exited).code).toBe(1);
    expect(child.stderr).toMatch(
      /^ingress: configuration error: HOOKRAIL_SOURCES \S+: source #1 \(shop\): secrets\[0\] is not a Standard Webhooks signing secret: character 7 is a character that base64 does not use; a valid one is whsec_ followed by /,
    );
    expect(child.stderr).not.toContain('%%%');
  });
});
