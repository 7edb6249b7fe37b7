// npm run bench:ingress — the request plane under load, against its baselines measured in the same run:
//   1. hookrail ingress at a fixed 1,000 req/s: p50 / p99 / max (open loop, from each request's due time)
//   2. hookrail ingress saturated: maximum sustained accepted events/s
//   3. pgbench, single-row INSERT transactions with the same number of connections: the physical ceiling, and at the
//      fixed rate the latency floor
//   4. a naive inline handler with a 200 ms slow step in the request: the design hookrail replaces
// Prints a table and the ratios; ingress peak RSS from /proc.
import 'reflect-metadata';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { fixedRate, saturate } from '../lib/http-load';
import { freshDatabase, root, signedRequests, stop, waitHttp } from '../lib/ingress-fixtures';
import { peakRssMb } from '../lib/process-memory';
import { ms, summary } from '../lib/stats';

const RATE = Number(process.env.BENCH_RATE || 1000);
/** Lower fixed rates measured as well, to show where latency stays flat on this machine. */
const LOWER_RATES = (process.env.BENCH_LOWER_RATES ?? '250,500').split(',').filter(Boolean).map(Number);
const FIXED_SECONDS = Number(process.env.BENCH_SECONDS || 10);
const SATURATE_REQUESTS = Number(process.env.BENCH_SATURATE_REQUESTS || 30_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);

function spawnTs(entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['-r', '@swc-node/register', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The ingress as it runs in production: compiled JavaScript (npm run build), no TypeScript loader in memory. */
function spawnBuiltIngress(env: NodeJS.ProcessEnv): ChildProcess {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const nodeOptions = (process.env.BENCH_INGRESS_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...nodeOptions, 'dist/apps/ingress/src/main.js'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Runs pgbench's single-row INSERT against `url` with `CONNECTIONS` clients and the extra arguments; its stdout. */
function pgbench(url: string, args: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-pgbench-'));
  const script = path.join(dir, 'insert.sql');
  writeFileSync(
    script,
    `INSERT INTO pgbench_single_insert (payload) VALUES ('{"type":"shop.order.placed.v1","orderId":"ord_1","amount":4200}');\n`,
  );
  const parsed = new URL(url);
  try {
    return execFileSync(
      'pgbench',
      [
        '-n',
        '-c',
        String(CONNECTIONS),
        '-j',
        '2',
        ...args,
        '-f',
        script,
        '-h',
        parsed.hostname,
        '-p',
        parsed.port || '5432',
        '-U',
        parsed.username || 'postgres',
        parsed.pathname.slice(1),
      ],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pgbenchTps(url: string): number {
  const output = pgbench(url, ['-T', '10']);
  const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
  if (!match) throw new Error(`could not read pgbench output:\n${output}`);
  return Number(match[1]);
}

/** pgbench at a fixed rate: every transaction's latency (ms) from its per-transaction log, the floor under the ingress's. */
function pgbenchLatenciesMs(url: string, rate: number, seconds: number): number[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-pgbench-log-'));
  try {
    pgbench(url, ['-R', String(rate), '-T', String(seconds), '--log', `--log-prefix=${path.join(dir, 'tx')}`]);
    return readdirSync(dir)
      .flatMap((file) => readFileSync(path.join(dir, file), 'utf8').split('\n'))
      .filter(Boolean)
      .map((line) => Number(line.split(' ')[2]) / 1000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function countStatuses(statuses: Map<number, number>): string {
  return [...statuses.entries()].map(([status, count]) => `${status}×${count}`).join(' ');
}

async function main(): Promise<void> {
  console.log(
    `bench:ingress on ${os.cpus().length} cores; ${[...LOWER_RATES, RATE].join(', ')} req/s for ${FIXED_SECONDS} s each; saturation with ${CONNECTIONS} connections; ` +
      `ingress node options: ${process.env.BENCH_INGRESS_NODE_OPTIONS || '(none)'}\n`,
  );
  const url = await freshDatabase('hookrail_bench_ingress');
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const sourcesFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'hookrail-bench-')), 'sources.json');
  writeFileSync(
    sourcesFile,
    JSON.stringify([
      {
        name: 'shop',
        scheme: 'standard-webhooks',
        secrets: [secret],
        topic: 'shop.orders',
        aggregateIdPath: 'data.orderId',
      },
    ]),
  );

  const port = 3100 + Math.floor(Math.random() * 500);
  const ingress = spawnBuiltIngress({
    DATABASE_URL: url,
    HOOKRAIL_SOURCES: sourcesFile,
    ADMIN_TOKEN: randomBytes(16).toString('hex'),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: String(CONNECTIONS),
  });
  await waitHttp(port, '/healthz');

  const lowerTotal = LOWER_RATES.reduce((sum, rate) => sum + rate * FIXED_SECONDS, 0);
  const requests = signedRequests(secret, 2_000 + lowerTotal + RATE * FIXED_SECONDS + SATURATE_REQUESTS);
  await saturate(port, requests.slice(0, 2_000), CONNECTIONS); // warm-up: JIT, pool, caches
  let next = 2_000;
  const lower: Array<{ rate: number; latencies: number[] }> = [];
  for (const rate of LOWER_RATES) {
    lower.push({
      rate,
      latencies: (await fixedRate(port, requests.slice(next, next + rate * FIXED_SECONDS), rate)).latenciesMs,
    });
    next += rate * FIXED_SECONDS;
  }
  const steady = await fixedRate(port, requests.slice(next, next + RATE * FIXED_SECONDS), RATE);
  const max = await saturate(port, requests.slice(next + RATE * FIXED_SECONDS), CONNECTIONS);
  const rss = peakRssMb(ingress.pid as number);
  await stop(ingress);
  const maxAccepted = ((max.statuses.get(202) ?? 0) / max.elapsedMs) * 1000;

  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE TABLE pgbench_single_insert (id bigserial PRIMARY KEY, payload jsonb NOT NULL)');
  await admin.query('CREATE TABLE naive_events (id bigserial PRIMARY KEY, payload jsonb NOT NULL)');
  const rows = Number((await admin.query('SELECT count(*) AS n FROM inbound_events')).rows[0].n);
  const outboxRows = Number((await admin.query('SELECT count(*) AS n FROM outbox')).rows[0].n);
  await admin.end();
  const tps = pgbenchTps(url);
  const floor = summary(pgbenchLatenciesMs(url, RATE, FIXED_SECONDS));

  const naivePort = port + 1;
  const naive = spawnTs('bench/ingress/naive-inline.server.ts', { DATABASE_URL: url, PORT: String(naivePort) });
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the naive server has no health route; it starts in < 1 s
  const naiveSteady = await fixedRate(naivePort, requests.slice(0, RATE * 5), RATE);
  const naiveMax = await saturate(naivePort, requests.slice(0, 2_000), CONNECTIONS);
  await stop(naive);

  const s = summary(steady.latenciesMs);
  const n = summary(naiveSteady.latenciesMs);
  const report = [
    `| measurement | figure |`,
    `|---|---|`,
    ...lower.map(({ rate, latencies }) => {
      const figures = summary(latencies);
      return `| hookrail ingress at ${rate} req/s (${latencies.length} requests) | p50 ${ms(figures.p50)}, p99 ${ms(figures.p99)}, max ${ms(figures.max)} |`;
    }),
    `| hookrail ingress at ${RATE} req/s (${steady.latenciesMs.length} requests) | p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} |`,
    `| hookrail ingress, maximum sustained (${CONNECTIONS} connections) | ${maxAccepted.toFixed(0)} accepted events/s (p99 ${ms(summary(max.latenciesMs).p99)}) |`,
    `| pgbench single-row INSERT, ${CONNECTIONS} connections | ${tps.toFixed(0)} TPS |`,
    `| pgbench single-row INSERT at a fixed ${RATE} TPS, ${CONNECTIONS} connections | p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)}, max ${ms(floor.max)} |`,
    `| naive inline handler (200 ms step) at ${RATE} req/s | p50 ${ms(n.p50)}, p99 ${ms(n.p99)}, max ${ms(n.max)} |`,
    `| naive inline handler, maximum (${CONNECTIONS} connections) | ${(((naiveMax.statuses.get(200) ?? 0) / naiveMax.elapsedMs) * 1000).toFixed(0)} req/s |`,
    `| ingress peak RSS | ${rss.toFixed(0)} MB |`,
    ``,
    `ratios: ingress max / pgbench TPS = ${(maxAccepted / tps).toFixed(2)} (goal ≥ 0.5); naive p99 / ingress p99 = ${(n.p99 / s.p99).toFixed(0)}×; ` +
      `p99 at ${RATE} req/s ${s.p99 <= 5 ? 'meets' : 'misses'} the 5 ms goal (pgbench's own p99 at that rate: ${ms(floor.p99)}); RSS ${rss <= 150 ? 'meets' : 'misses'} the 150 MB goal`,
    `statuses: steady ${countStatuses(steady.statuses)}; saturated ${countStatuses(max.statuses)}; rows: ${rows} inbound_events, ${outboxRows} outbox`,
  ];
  console.log(report.join('\n'));
}

main().catch((error: Error) => {
  console.error(`bench:ingress failed: ${error.stack}`);
  process.exit(1);
});
