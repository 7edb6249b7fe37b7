// npm run bench:ingress-split — what moving the operator plane out of the ingress changed for the ingress: the
// ingress of this checkout ("after") against the ingress of an earlier commit ("before", BENCH_BEFORE_COMMIT, default
// 4469b46: the commit before the operator plane became apps/admin), alternated BENCH_ROUNDS (3) times, before first.
// The earlier commit is checked out with `git worktree add` into a temporary folder (this checkout's node_modules
// linked in) and built with its own `npm run build`; the folder is removed at the end. Each run, on a fresh database
// migrated by that tree's own migrations (its compiled db:migrate):
//   1. start time: spawn of the compiled ingress (dist/apps/ingress/src/main.js, with the Node flags of that tree's
//      `start:ingress` script) until GET /readyz answers 200, polled every 10 ms
//   2. idle RSS: VmRSS from /proc, BENCH_IDLE_MS (2,000) after ready, before any request
//   3. BENCH_WARMUP (1,000) signed deliveries at the fixed rate, then BENCH_RATE (500) signed deliveries/s for
//      BENCH_SECONDS (10): the ingress's CPU (user + system, /proc) per accepted request (202) of that phase, and its
//      peak RSS (VmHWM) at the end
// Prints each run, the medians and after / before. A tree whose ingress still carries the operator plane (no
// apps/admin) gets an ADMIN_TOKEN, which it needs to start; the other does not. BENCH_INGRESS_NODE_OPTIONS replaces
// both trees' Node flags (set but empty: none).
import 'reflect-metadata';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptNodeOptions } from '../lib/app-node-options';
import { fixedRate, LoadRequest } from '../lib/http-load';
import { dropDatabase, root, serverUrl, signedRequests, stop, writeShopSources } from '../lib/ingress-fixtures';
import { cpuTimeMs, peakRssMb, rssMb } from '../lib/process-memory';
import { percentile } from '../lib/stats';
import { withDatabase } from '@app/db';

const BEFORE_COMMIT = process.env.BENCH_BEFORE_COMMIT || '4469b46';
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const RATE = Number(process.env.BENCH_RATE || 500);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1_000);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS || 2_000);
const DATABASE = 'hookrail_bench_split';

interface Tree {
  label: 'before' | 'after';
  dir: string;
  commit: string;
  nodeOptions: string[];
  /** Its ingress still loads the operator plane, and needs ADMIN_TOKEN to start. */
  needsAdminToken: boolean;
}

interface Run {
  label: Tree['label'];
  startMs: number;
  idleRssMb: number;
  peakRssMb: number;
  cpuPerAcceptedMs: number;
  accepted: number;
  sent: number;
  /** The answers by status, e.g. `202×5000 503×3`. */
  answers: string;
}

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function describeTree(label: Tree['label'], dir: string): Tree {
  const scripts = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const override = process.env.BENCH_INGRESS_NODE_OPTIONS;
  return {
    label,
    dir,
    commit: git(dir, ['rev-parse', '--short', 'HEAD']),
    nodeOptions:
      override !== undefined
        ? override.split(' ').filter(Boolean)
        : startScriptNodeOptions(scripts['start:ingress'] ?? ''),
    needsAdminToken: !existsSync(path.join(dir, 'apps/admin/src/main.ts')),
  };
}

/** The earlier commit in a temporary worktree, built; `remove` deletes the worktree. */
function prepareBefore(): { tree: Tree; remove: () => void } {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'hookrail-bench-split-')), 'before');
  git(root, ['worktree', 'add', '--detach', dir, BEFORE_COMMIT]);
  const remove = () => {
    git(root, ['worktree', 'remove', '--force', dir]);
    rmSync(path.dirname(dir), { recursive: true, force: true });
  };
  try {
    symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(dir, 'node_modules'));
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: dir, stdio: 'inherit' });
    return { tree: describeTree('before', dir), remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** A fresh database, migrated by the tree's own compiled migrations. */
async function freshDatabaseOf(tree: Tree): Promise<string> {
  await dropDatabase(DATABASE);
  const url = withDatabase(serverUrl, DATABASE);
  execFileSync(process.execPath, ['dist/libs/db/src/cli/migrate.command.js'], {
    cwd: tree.dir,
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return url;
}

/** Polls GET /readyz every 10 ms until it answers 200; the time since `spawnedAt`, in ms. */
async function readyAfter(port: number, spawnedAt: number, child: ChildProcess, timeoutMs = 60_000): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return performance.now() - spawnedAt;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the ingress exited with ${child.exitCode} before it was ready`);
    if (performance.now() - spawnedAt > timeoutMs) throw new Error(`/readyz did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function measure(tree: Tree, sourcesFile: string, requests: LoadRequest[]): Promise<Run> {
  const url = await freshDatabaseOf(tree);
  const port = 3100 + Math.floor(Math.random() * 500);
  const spawnedAt = performance.now();
  const ingress = spawn(process.execPath, [...tree.nodeOptions, 'dist/apps/ingress/src/main.js'], {
    cwd: tree.dir,
    env: {
      ...process.env,
      DATABASE_URL: url,
      HOOKRAIL_SOURCES: sourcesFile,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...(tree.needsAdminToken ? { ADMIN_TOKEN: randomBytes(16).toString('hex') } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const startMs = await readyAfter(port, spawnedAt, ingress);
    const pid = ingress.pid as number;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleRssMb = rssMb(pid);
    if (WARMUP > 0) await fixedRate(port, requests.slice(0, WARMUP), RATE);
    const cpuBefore = cpuTimeMs(pid);
    const result = await fixedRate(port, requests.slice(WARMUP), RATE);
    const accepted = result.statuses.get(202) ?? 0;
    return {
      label: tree.label,
      startMs,
      idleRssMb,
      peakRssMb: peakRssMb(pid),
      cpuPerAcceptedMs: (cpuTimeMs(pid) - cpuBefore) / Math.max(1, accepted),
      accepted,
      sent: result.latenciesMs.length,
      answers: [...result.statuses].map(([status, count]) => `${status}×${count}`).join(' '),
    };
  } finally {
    await stop(ingress);
  }
}

const FIGURES: Array<{ name: string; of: (run: Run) => number; digits: number }> = [
  { name: 'idle RSS, MB', of: (run) => run.idleRssMb, digits: 1 },
  { name: 'peak RSS, MB', of: (run) => run.peakRssMb, digits: 1 },
  { name: 'CPU per accepted request, ms', of: (run) => run.cpuPerAcceptedMs, digits: 3 },
  { name: 'start (spawn → /readyz 200), ms', of: (run) => run.startMs, digits: 0 },
];

function report(trees: Tree[], runs: Run[]): string {
  const [before, after] = trees;
  const of = (label: Tree['label']) => runs.filter((run) => run.label === label);
  const median = (label: Tree['label'], value: (run: Run) => number) => percentile(of(label).map(value), 50);
  const lines = [
    `| run | tree | idle RSS | peak RSS | CPU / accepted | start | accepted / sent |`,
    `|---|---|---|---|---|---|---|`,
    ...runs.map(
      (run, index) =>
        `| ${index + 1} | ${run.label} | ${run.idleRssMb.toFixed(1)} MB | ${run.peakRssMb.toFixed(1)} MB | ` +
        `${run.cpuPerAcceptedMs.toFixed(3)} ms | ${run.startMs.toFixed(0)} ms | ${run.accepted} / ${run.sent} |`,
    ),
    '',
    `| median | before (${before.commit}) | after (${after.commit}) | after / before |`,
    `|---|---|---|---|`,
    ...FIGURES.map(({ name, of: value, digits }) => {
      const [b, a] = [median('before', value), median('after', value)];
      return `| ${name} | ${b.toFixed(digits)} | ${a.toFixed(digits)} | ${(a / b).toFixed(2)} |`;
    }),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const load = () => os.loadavg()[0].toFixed(2);
  console.log(
    `bench:ingress-split on ${os.cpus().length} cores, load ${load()}: before ${BEFORE_COMMIT}, after this checkout; ` +
      `${ROUNDS} rounds; ${RATE} deliveries/s for ${SECONDS} s after ${WARMUP} to warm up\n`,
  );
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const { tree: before, remove } = prepareBefore();
  const after = describeTree('after', root);
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const sources = writeShopSources(secret);
  const requests = signedRequests(secret, WARMUP + RATE * SECONDS); // each run has a database of its own
  const runs: Run[] = [];
  const loads: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1)
      for (const tree of [before, after]) {
        loads.push(load());
        const run = await measure(tree, sources.file, requests);
        runs.push(run);
        console.log(
          `round ${round + 1} ${tree.label}: start ${run.startMs.toFixed(0)} ms, idle ${run.idleRssMb.toFixed(1)} MB, ` +
            `peak ${run.peakRssMb.toFixed(1)} MB, ${run.cpuPerAcceptedMs.toFixed(3)} ms CPU per accepted ` +
            `(${run.answers}); load ${loads[loads.length - 1]}`,
        );
      }
  } finally {
    rmSync(sources.dir, { recursive: true, force: true });
    await dropDatabase(DATABASE);
    remove();
  }
  console.log(
    `\nnode flags: before ${before.nodeOptions.join(' ') || '(none)'}; after ${after.nodeOptions.join(' ') || '(none)'}`,
  );
  console.log(`1-minute load at each run's start: ${loads.join(', ')}\n`);
  console.log(report([before, after], runs));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
