import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A second broker on its own ports and state dir, so the suite's broker is never touched.
const env = {
  ...process.env,
  KAFKA_PORT: '19092',
  KAFKA_CONTROLLER_PORT: '19093',
  KAFKA_STATE_DIR: mkdtempSync(path.join(os.tmpdir(), 'hookrail-kafka-script-')),
  KAFKA_HEAP: '256m',
};
const script = path.join(__dirname, 'kafka.sh');

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
  afterAll(async () => {
    await run('down');
    rmSync(env.KAFKA_STATE_DIR, { recursive: true, force: true });
  });

  it('starts one broker however often it is asked, reports it, and stops it', async () => {
    expect((await run('status')).code).toBe(3);

    const first = await run('up');
    expect(first.code).toBe(0);
    expect(await portOpen(19092)).toBe(true);
    const pid = readFileSync(path.join(env.KAFKA_STATE_DIR, 'broker.pid'), 'utf8').trim();

    const second = await run('up');
    expect(second.code).toBe(0);
    expect(second.output).toContain('already running');
    expect(readFileSync(path.join(env.KAFKA_STATE_DIR, 'broker.pid'), 'utf8').trim()).toBe(pid);

    const status = await run('status');
    expect(status.code).toBe(0);
    expect(status.output).toContain(`running (pid ${pid}`);

    expect((await run('down')).code).toBe(0);
    expect(await portOpen(19092)).toBe(false);
    expect(() => process.kill(Number(pid), 0)).toThrow();
    expect((await run('status')).code).toBe(3);

    const again = await run('down');
    expect(again.code).toBe(0);
    expect(again.output).toContain('not running');
  });
});
