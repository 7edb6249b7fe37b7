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

function run(command: string, extra: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [script, ...command.split(' ')],
      { env: { ...env, ...extra }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      },
    );
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
    // Two JVM starts and a stop: on two busy cores (other suites start brokers and apps too) this passes a minute.
  }, 180_000);

  // The cluster's lifecycle (up, stop, kill, start, status, down) is exercised by the chaos run, which drives a
  // 3-node cluster through this script, and by the relay's leader-change test (2 nodes); these are its guards.
  it('in cluster mode, keeps off the single broker and says what it runs, without starting anything', async () => {
    const cluster = { KAFKA_NODES: '3', KAFKA_CLUSTER_STATE_DIR: path.join(env.KAFKA_STATE_DIR as string, 'cluster') };
    const refused = await run('up', { ...cluster, KAFKA_CLUSTER_STATE_DIR: env.KAFKA_STATE_DIR });
    expect(refused.code).toBe(2);
    expect(refused.output).toContain("KAFKA_CLUSTER_STATE_DIR is the single broker's state dir");

    const status = await run('status', { ...cluster, KAFKA_CLUSTER_PORT: String(port) });
    expect(status.code).toBe(3);
    expect(status.output).toContain(`node 1 stopped (127.0.0.1:${port})`);
    expect(status.output).toContain(`node 3 stopped (127.0.0.1:${port + 2})`);
    expect(status.output).toContain('0 of 3 nodes running');

    const single = await run('stop 2');
    expect(single.code).toBe(2);
    expect(single.output).toContain('stop works on one node of a cluster: set KAFKA_NODES');
    expect((await run('start 4', cluster)).output).toContain('usage: kafka.sh start <node 1..3>');
    expect((await run('status', { KAFKA_NODES: 'three' })).code).toBe(2);
  });
});
