import { createTestDatabase, freePort, TestDatabase } from '@app/testing';
import { execFile } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve(__dirname, '../../bin/hookrail');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The bin as an operator runs it; a first run after a change builds dist/ first, hence the long timeout. */
function hookrail(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, HOOKRAIL_OPERATOR: 'ops-team', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/**
 * Exit codes that mean what they say (0 done, 1 failed, 2 usage or configuration error) and connection errors that
 * say which dependency failed and which variable points at it.
 */
describe('hookrail exit codes and connection errors', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(() => database?.drop());

  it('names Postgres and the DATABASE_URL host it cannot reach (exit 1)', async () => {
    const port = await freePort();
    const run = await hookrail({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/hookrail` }, 'dlq', 'list');
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr.trim()).toBe(
      `hookrail: cannot reach Postgres at 127.0.0.1:${port} (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  }, 150_000);

  it('names Kafka and KAFKA_BROKERS when the brokers cannot be reached (exit 1), within seconds', async () => {
    const port = await freePort();
    const started = Date.now();
    const run = await hookrail({ DATABASE_URL: database.url, KAFKA_BROKERS: `127.0.0.1:${port}` }, 'lag');
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr.trim()).toBe(
      `hookrail: cannot reach Kafka at KAFKA_BROKERS=127.0.0.1:${port}: Connection error: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('calls a DATABASE_URL naming a database that does not exist a configuration error (exit 2)', async () => {
    const url = new URL(database.url);
    url.pathname = '/hookrail_no_such_database';
    const run = await hookrail({ DATABASE_URL: url.toString() }, 'sagas', 'list');
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr.trim()).toBe(
      `hookrail: DATABASE_URL names database hookrail_no_such_database on ${url.hostname}:${url.port}, which does not ` +
        'exist (npm run db:migrate creates and migrates it)',
    );
  });

  it('exits 1 for what is not there or not allowed, 2 for a command it cannot parse', async () => {
    const env = { DATABASE_URL: database.url };
    const [missing, noSaga, unknown, badOption] = await Promise.all([
      hookrail(env, 'dlq', 'show', '00000000-0000-4000-8000-000000000001'),
      hookrail(env, 'sagas', 'retry', '00000000-0000-4000-8000-000000000000'),
      hookrail(env, 'nonsense'),
      hookrail(env, 'dlq', 'list', '--no-such-option'),
    ]);
    expect(missing).toMatchObject({
      code: 1,
      stderr: 'hookrail: no dead letter with id 00000000-0000-4000-8000-000000000001\n',
    });
    expect(noSaga).toMatchObject({
      code: 1,
      stderr: 'hookrail: no saga with id 00000000-0000-4000-8000-000000000000\n',
    });
    expect(unknown).toMatchObject({ code: 2, stderr: 'hookrail: unknown command "nonsense"\n' });
    expect(badOption.code).toBe(2);
  });
});
