import { createDatabaseIfAbsent, migrate, withDatabase } from '@app/db';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { LoadRequest } from './http-load';

export const root = path.resolve(__dirname, '../..');
export const serverUrl = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Drops a benchmark database, if it exists. */
export async function dropDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Drops and recreates a benchmark database, migrated. */
export async function freshDatabase(name: string): Promise<string> {
  await dropDatabase(name);
  const url = withDatabase(serverUrl, name);
  await createDatabaseIfAbsent(url);
  await migrate(url);
  return url;
}

/**
 * A sources file (HOOKRAIL_SOURCES) in a temporary folder of its own, named from `prefix`: source `shop`, Standard
 * Webhooks signed with `secret`, to `topic`. Remove `dir` when done.
 */
export function writeShopSources(
  secret: string,
  topic = 'shop.orders',
  prefix = 'hookrail-bench-',
): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'sources.json');
  writeFileSync(
    file,
    JSON.stringify([
      { name: 'shop', scheme: 'standard-webhooks', secrets: [secret], topic, aggregateIdPath: 'data.orderId' },
    ]),
  );
  return { dir, file };
}

/** Distinct, correctly signed shop.order.placed.v1 deliveries to POST /webhooks/shop. */
export function signedRequests(
  secret: string,
  count: number,
  aggregates = 5000,
  /** Further top-level fields of every body (e.g. the customer a source's customerIdPath reads). */
  extra: Record<string, unknown> = {},
): LoadRequest[] {
  const webhook = new Webhook(secret);
  const now = new Date();
  return Array.from({ length: count }, (_, index) => {
    const id = `msg_${index}_${randomBytes(4).toString('hex')}`;
    const body = JSON.stringify({
      type: 'shop.order.placed.v1',
      timestamp: now.toISOString(),
      ...extra,
      data: {
        orderId: `ord_${index % aggregates}`,
        customer: { id: `cus_${index % 997}`, email: 'ada@example.com' },
        amount: 4200,
        currency: 'EUR',
        lineItems: [{ sku: 'notebook', quantity: 2, unitAmount: 2100 }],
      },
    });
    return {
      path: '/webhooks/shop',
      body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': webhook.sign(id, now, body),
      },
    };
  });
}

export async function waitHttp(port: number, pathname: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${pathname}`)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`nothing answered on port ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The apps this benchmark started that are still running. */
const running = new Set<ChildProcess>();
let killingOnExit = false;

/**
 * Kills the apps still running when the benchmark's process exits, a crash included, so that none outlives it and
 * spends the next run's CPU. A SIGINT or SIGTERM no one else handles ends the benchmark the same way.
 */
function killAppsOnExit(): void {
  killingOnExit = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    if (process.listenerCount(signal) === 0) process.once(signal, () => process.exit(code));
}

/** A compiled app (npm run build first) as a child process, killed if the benchmark exits first. */
export function spawnBuilt(entry: string, env: NodeJS.ProcessEnv, nodeOptions: string[] = []): ChildProcess {
  if (!killingOnExit) killAppsOnExit();
  const child = spawn(process.execPath, [...nodeOptions, entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
