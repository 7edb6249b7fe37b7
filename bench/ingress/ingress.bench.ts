// npm run bench:ingress — the request plane under load, against its baselines measured in the same run:
//   1. hookrail ingress at fixed rates (250, 500, 1,000 req/s): p50 / p99 / max (open loop, from each request's due
//      time) and the ingress's CPU per accepted request (from /proc)
//   2. hookrail ingress saturated: maximum sustained accepted events/s, CPU per accepted request
//   3. the same with the group commit off (GROUP_COMMIT_MAX_ROWS=1: one statement per delivery), unless
//      BENCH_GROUP_COMMIT_BASELINE=0
//   4. pgbench, single-row INSERT transactions with the same number of connections: the physical ceiling, and at
//      each fixed rate the latency floor
//   5. the floor: plain node:http with one prepared INSERT per request and no other work, saturated the same way,
//      for its CPU per request beside the ingress's (inline-insert.server.ts, STEP_MS=0)
//   6. a naive inline handler with a 200 ms slow step in the request: the design hookrail replaces (the same server,
//      STEP_MS=200)
//   7. a burst against a cold ingress (a fresh process): BENCH_BURST (2,000) deliveries at once, then 5× the
//      maximum sustained rate of (2) for BENCH_OVERLOAD_SECONDS (10): the slowest answer, the p99 and the answers
//      over 2 s, the answers by kind (202, 200 duplicate, a fast 503 overloaded or 429 with Retry-After, anything
//      else), every 202's row, and the accepted rate during the overload against (2)'s; BENCH_BURST=0 skips it. The
//      load generator keeps at most 2,000 requests open (MAX_SENDERS); an answer's latency runs from when its request
//      got a socket
// Prints a table and the goals; peak RSS from /proc. The ingress runs as `npm run start:ingress` starts it
// (scripts/run-built.js and the compiled app), with the Node flags of its start script (BENCH_INGRESS_NODE_OPTIONS replaces them; set but empty: none); BENCH_INGRESS_ENV adds variables
// ("GROUP_COMMIT_WAIT_MS=1 DATABASE_POOL_SIZE=10").
import 'reflect-metadata';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { appNodeOptions } from '../lib/app-node-options';
import { fixedRate, LoadRequest, LoadResult, perSecond, saturate } from '../lib/http-load';
import { allAtOnce, atRate, burstSummary } from './burst';
import { freshDatabase, root, signedRequests, stop, waitHttp, writeShopSources } from '../lib/ingress-fixtures';
import { cpuTimeMs, peakRssMb } from '../lib/process-memory';
import { ms, summary } from '../lib/stats';

const RATE = Number(process.env.BENCH_RATE || 1000);
/** Lower fixed rates measured as well, to show where latency stays flat on this machine. */
const LOWER_RATES = (process.env.BENCH_LOWER_RATES ?? '250,500').split(',').filter(Boolean).map(Number);
const RATES = [...LOWER_RATES, RATE];
const FIXED_SECONDS = Number(process.env.BENCH_SECONDS || 10);
const SATURATE_REQUESTS = Number(process.env.BENCH_SATURATE_REQUESTS || 30_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);
const WARMUP = 2_000;
const GROUP_COMMIT_BASELINE = process.env.BENCH_GROUP_COMMIT_BASELINE !== '0';
const BURST = Number(process.env.BENCH_BURST ?? 2_000);
const OVERLOAD_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS || 10);
const NODE_OPTIONS = appNodeOptions('ingress', process.env.BENCH_INGRESS_NODE_OPTIONS);
const EXTRA_ENV = Object.fromEntries(
  (process.env.BENCH_INGRESS_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

interface Phase {
  result: LoadResult;
  /** Ingress CPU (user + system) per 202, in ms. */
  cpuPerAccepted: number;
}

interface IngressRun {
  label: string;
  fixed: Array<Phase & { rate: number }>;
  max: Phase & { acceptedPerSecond: number };
  rssMb: number;
  rows: { events: number; outbox: number };
}

/** The inline-insert baseline server (`STEP_MS` of slow work in each request), once it answers. */
async function startInline(url: string, stepMs: number): Promise<{ port: number; process: ChildProcess }> {
  const port = 3700 + Math.floor(Math.random() * 300);
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'bench/ingress/inline-insert.server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), STEP_MS: String(stepMs) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitHttp(port, '/');
  return { port, process: child };
}

async function measured(pid: number, load: () => Promise<LoadResult>): Promise<Phase> {
  const before = cpuTimeMs(pid);
  const result = await load();
  const accepted = result.statuses.get(202) ?? 0;
  return { result, cpuPerAccepted: (cpuTimeMs(pid) - before) / Math.max(1, accepted) };
}

/** One ingress configuration through warm-up, the fixed rates and saturation, on a fresh database. */
async function runIngress(
  label: string,
  env: Record<string, string>,
  requests: LoadRequest[],
  sourcesFile: string,
): Promise<IngressRun> {
  const { url, port, ingress } = await startIngress(env, sourcesFile);
  try {
    const pid = ingress.pid as number;
    await saturate(port, requests.slice(0, WARMUP), CONNECTIONS); // JIT, pool, caches
    let next = WARMUP;
    const fixed: IngressRun['fixed'] = [];
    for (const rate of RATES) {
      const slice = requests.slice(next, next + rate * FIXED_SECONDS);
      next += slice.length;
      fixed.push({ rate, ...(await measured(pid, () => fixedRate(port, slice, rate))) });
    }
    const max = await measured(pid, () => saturate(port, requests.slice(next, next + SATURATE_REQUESTS), CONNECTIONS));
    const acceptedPerSecond = perSecond(max.result, 202);
    const rssMb = peakRssMb(pid);
    const admin = new Client({ connectionString: url });
    await admin.connect();
    const count = async (sql: string) => Number((await admin.query(sql)).rows[0].n);
    const rows = {
      events: await count('SELECT count(*) AS n FROM inbound_events'),
      outbox: await count('SELECT count(*) AS n FROM outbox'),
    };
    await admin.end();
    return { label, fixed, max: { ...max, acceptedPerSecond }, rssMb, rows };
  } finally {
    await stop(ingress);
  }
}

/** A fresh database and the ingress on it, started as `npm run start:ingress` does; ready once /readyz answers 200. */
async function startIngress(
  env: Record<string, string>,
  sourcesFile: string,
): Promise<{ url: string; port: number; ingress: ChildProcess }> {
  const url = await freshDatabase('hookrail_bench_ingress');
  const port = 3100 + Math.floor(Math.random() * 500);
  const ingress = spawn(process.execPath, [...NODE_OPTIONS, 'scripts/run-built.js', 'apps/ingress/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: url,
      HOOKRAIL_SOURCES: sourcesFile,
      ADMIN_TOKEN: randomBytes(16).toString('hex'),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_POOL_SIZE: String(CONNECTIONS),
      ...EXTRA_ENV,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitHttp(port, '/readyz');
  return { url, port, ingress };
}

interface BurstRun {
  burst: ReturnType<typeof burstSummary>;
  overload: ReturnType<typeof burstSummary> & { offeredPerSecond: number };
  /** 202s whose sender id has no row. */
  missingRows: number;
}

/** The burst on a cold ingress, then 5× `sustained` for OVERLOAD_SECONDS (requests beyond those of the other runs). */
async function runBurst(requests: LoadRequest[], sourcesFile: string, sustained: number): Promise<BurstRun> {
  const { url, port, ingress } = await startIngress({}, sourcesFile);
  try {
    const burst = await allAtOnce(port, requests.slice(0, BURST));
    const rate = Math.round(5 * sustained);
    const overload = await atRate(port, requests.slice(BURST, BURST + rate * OVERLOAD_SECONDS), rate);
    const answered = [...burst.answers, ...overload.answers].filter((answer) => answer.status === 202);
    const admin = new Client({ connectionString: url });
    await admin.connect();
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM inbound_events WHERE sender_event_id = ANY($1)',
      [answered.map((answer) => answer.senderId)],
    );
    await admin.end();
    return {
      burst: burstSummary(burst),
      overload: { ...burstSummary(overload), offeredPerSecond: (overload.answers.length / overload.elapsedMs) * 1000 },
      missingRows: answered.length - rows[0].n,
    };
  } finally {
    await stop(ingress);
  }
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
      { cwd: dir, encoding: 'utf8' },
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

const countStatuses = (statuses: Map<number, number>): string =>
  [...statuses.entries()].map(([status, count]) => `${status}×${count}`).join(' ');
const cpu = (value: number) => `${value.toFixed(3)} ms CPU`;

async function main(): Promise<void> {
  console.log(
    `bench:ingress on ${os.cpus().length} cores; ${RATES.join(', ')} req/s for ${FIXED_SECONDS} s each; saturation with ` +
      `${CONNECTIONS} connections; ingress node options: ${NODE_OPTIONS.join(' ') || '(none)'}; ` +
      `env: ${JSON.stringify(EXTRA_ENV)}\n`,
  );
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const { dir: sourcesDir, file: sourcesFile } = writeShopSources(secret);
  const perRun = WARMUP + RATES.reduce((sum, rate) => sum + rate * FIXED_SECONDS, 0) + SATURATE_REQUESTS;
  const requests = signedRequests(secret, perRun); // each run has a database of its own, so the same deliveries
  const runs = [await runIngress('group commit (defaults)', {}, requests, sourcesFile)];
  if (GROUP_COMMIT_BASELINE)
    runs.push(await runIngress('one statement per delivery', { GROUP_COMMIT_MAX_ROWS: '1' }, requests, sourcesFile));
  const burst =
    BURST > 0
      ? await runBurst(
          signedRequests(secret, BURST + Math.round(5 * runs[0].max.acceptedPerSecond) * OVERLOAD_SECONDS),
          sourcesFile,
          runs[0].max.acceptedPerSecond,
        )
      : undefined;
  rmSync(sourcesDir, { recursive: true, force: true });

  const url = await freshDatabase('hookrail_bench_ingress');
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE TABLE pgbench_single_insert (id bigserial PRIMARY KEY, payload jsonb NOT NULL)');
  await admin.query('CREATE TABLE inline_events (id bigserial PRIMARY KEY, payload jsonb NOT NULL)');
  await admin.end();
  const tps = pgbenchTps(url);
  const floors = new Map(RATES.map((rate) => [rate, summary(pgbenchLatenciesMs(url, rate, FIXED_SECONDS))]));

  const floor = await startInline(url, 0);
  await saturate(floor.port, requests.slice(0, WARMUP), CONNECTIONS);
  const floorMax = await measured(floor.process.pid as number, () =>
    saturate(floor.port, requests.slice(WARMUP, WARMUP + SATURATE_REQUESTS), CONNECTIONS),
  );
  await stop(floor.process);

  const naive = await startInline(url, 200);
  const naiveSteady = await fixedRate(naive.port, requests.slice(0, RATE * 5), RATE);
  const naiveMax = await saturate(naive.port, requests.slice(0, 2_000), CONNECTIONS);
  await stop(naive.process);

  const cells = (render: (run: IngressRun) => string) => runs.map(render).join(' | ');
  const n = summary(naiveSteady.latenciesMs);
  const [primary] = runs;
  const report = [
    `| measurement | ${runs.map((run) => run.label).join(' | ')} |`,
    `|---|${runs.map(() => '---').join('|')}|`,
    ...RATES.map(
      (rate, index) =>
        `| ingress at ${rate} req/s (${rate * FIXED_SECONDS} requests) | ${cells((run) => {
          const { result, cpuPerAccepted } = run.fixed[index];
          const figures = summary(result.latenciesMs);
          return `p50 ${ms(figures.p50)}, p99 ${ms(figures.p99)}, max ${ms(figures.max)}; ${cpu(cpuPerAccepted)}`;
        })} |`,
    ),
    `| ingress, maximum sustained (${CONNECTIONS} connections) | ${cells(
      (run) =>
        `${run.max.acceptedPerSecond.toFixed(0)} accepted events/s (p99 ${ms(summary(run.max.result.latenciesMs).p99)}); ${cpu(run.max.cpuPerAccepted)}`,
    )} |`,
    `| ingress peak RSS | ${cells((run) => `${run.rssMb.toFixed(0)} MB`)} |`,
    `| pgbench single-row INSERT, ${CONNECTIONS} connections | ${tps.toFixed(0)} TPS |`,
    ...RATES.map((rate) => {
      const floor = floors.get(rate)!;
      return `| pgbench single-row INSERT at a fixed ${rate} TPS (latency floor) | p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)}, max ${ms(floor.max)} |`;
    }),
    `| floor: node:http, one INSERT per request, no other work, maximum (${CONNECTIONS} connections) | ${perSecond(floorMax.result, 202).toFixed(0)} req/s; ${cpu(floorMax.cpuPerAccepted)} |`,
    `| naive inline handler (200 ms step) at ${RATE} req/s | p50 ${ms(n.p50)}, p99 ${ms(n.p99)}, max ${ms(n.max)} |`,
    `| naive inline handler, maximum (${CONNECTIONS} connections) | ${perSecond(naiveMax, 202).toFixed(0)} req/s |`,
    ...(burst
      ? [
          `| burst: ${BURST} deliveries at once on a cold ingress | slowest ${ms(burst.burst.slowestMs)} (p99 ${ms(burst.burst.p99Ms)}, ${burst.burst.overTwoSeconds} over 2 s); ${burst.burst.accepted} × 202, ${burst.burst.shed} × 503 overloaded ${JSON.stringify(burst.burst.reasons)}, ${burst.burst.other} other |`,
          `| overload: 5 × ${primary.max.acceptedPerSecond.toFixed(0)}/s offered for ${OVERLOAD_SECONDS} s (the load generator reached ${burst.overload.offeredPerSecond.toFixed(0)}/s) | slowest ${ms(burst.overload.slowestMs)} (p99 ${ms(burst.overload.p99Ms)}, ${burst.overload.overTwoSeconds} over 2 s); ${burst.overload.accepted} × 202 (${burst.overload.acceptedPerSecond.toFixed(0)}/s), ${burst.overload.shed} × 503 overloaded ${JSON.stringify(burst.overload.reasons)}, ${burst.overload.other} other; 202s without their row: ${burst.missingRows} |`,
        ]
      : []),
    ``,
    `goals (${primary.label}):`,
    ...RATES.filter((rate) => rate >= 500).map((rate) => {
      const p99 = summary(primary.fixed[RATES.indexOf(rate)].result.latenciesMs).p99;
      const bound = floors.get(rate)!.p99 + 5;
      return `  p99 at ${rate} req/s ${ms(p99)} ${p99 <= bound ? 'meets' : 'misses'} pgbench's p99 + 5 ms (${ms(bound)})${p99 <= 10 ? ', and ≤ 10 ms' : ''}`;
    }),
    `  CPU per accepted request at saturation ${cpu(primary.max.cpuPerAccepted)}: ${primary.max.cpuPerAccepted <= 0.3 ? 'meets' : 'misses'} ≤ 0.3 ms ` +
      `(the floor's ${cpu(floorMax.cpuPerAccepted)}: ${(primary.max.cpuPerAccepted / floorMax.cpuPerAccepted).toFixed(2)}×)`,
    `  maximum ${primary.max.acceptedPerSecond.toFixed(0)} events/s: ${(primary.max.acceptedPerSecond / tps).toFixed(2)} × pgbench's single-row TPS (no goal: a figure to compare)`,
    `  peak RSS ${primary.rssMb.toFixed(0)} MB: ${primary.rssMb <= 150 ? 'meets' : 'misses'} ≤ 150 MB`,
    ...(burst
      ? [
          `  burst and overload: slowest answer ${ms(Math.max(burst.burst.slowestMs, burst.overload.slowestMs))} ${Math.max(burst.burst.slowestMs, burst.overload.slowestMs) <= 2000 ? 'meets' : 'misses'} ≤ 2 s; ` +
            `${burst.burst.other + burst.overload.other} answers neither 202, 200 nor a fast 503/429 with Retry-After (${burst.burst.other + burst.overload.other === 0 ? 'meets' : 'misses'} none); ` +
            `every 202 has its row: ${burst.missingRows === 0 ? 'meets' : 'misses'}; accepted during the overload ${(burst.overload.acceptedPerSecond / primary.max.acceptedPerSecond).toFixed(2)} × the maximum sustained ` +
            `(${burst.overload.acceptedPerSecond / primary.max.acceptedPerSecond >= 0.9 ? 'meets' : 'misses'} ≥ 0.9)`,
        ]
      : []),
    ...runs.map(
      (run) =>
        `statuses (${run.label}): ${run.fixed.map((phase) => `${phase.rate}/s ${countStatuses(phase.result.statuses)}`).join('; ')}; ` +
        `saturated ${countStatuses(run.max.result.statuses)}; rows: ${run.rows.events} inbound_events, ${run.rows.outbox} outbox`,
    ),
  ];
  console.log(report.join('\n'));
}

main().catch((error: Error) => {
  console.error(`bench:ingress failed: ${error.stack}`);
  process.exit(1);
});
