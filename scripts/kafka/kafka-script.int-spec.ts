import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const script = path.join(__dirname, 'kafka.sh');
let env: NodeJS.ProcessEnv;
let port: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
}

function run(command: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('bash', [script, command], { env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('scripts/kafka/kafka.sh', () => {
  // A second broker on free ports and its own state dir, so the suite's broker is never touched.
  beforeAll(async () => {
    port = await freePort();
    env = {
      ...process.env,
      KAFKA_PORT: String(port),
      KAFKA_CONTROLLER_PORT: String(await freePort()),
      KAFKA_STATE_DIR: mkdtempSync(path.join(os.tmpdir(), 'hookrail-kafka-script-')),
      KAFKA_HEAP: '256m',
    };
  });

  afterAll(async () => {
    await run('down');
    rmSync(env.KAFKA_STATE_DIR as string, { recursive: true, force: true });
  });

  it('starts one broker however often it is asked, reports it, and stops it', async () => {
    expect((await run('status')).code).toBe(3);

    const first = await run('up');
    expect(first.code).toBe(0);
    expect(await portOpen(port)).toBe(true);
    const pid = readFileSync(path.join(env.KAFKA_STATE_DIR as string, 'broker.pid'), 'utf8').trim();

    const second = await run('up');
    expect(second.code).toBe(0);
    expect(second.output).toContain('already running');
    expect(readFileSync(path.join(env.KAFKA_STATE_DIR as string, 'broker.pid'), 'utf8').trim()).toBe(pid);

    const status = await run('status');
    expect(status.code).toBe(0);
    expect(status.output).toContain(`running (pid ${pid}`);

    expect((await run('down')).code).toBe(0);
    expect(await portOpen(port)).toBe(false);
    expect(() => process.kill(Number(pid), 0)).toThrow();
    expect((await run('status')).code).toBe(3);

    const again = await run('down');
    expect(again.code).toBe(0);
    expect(again.output).toContain('not running');
  });
});
