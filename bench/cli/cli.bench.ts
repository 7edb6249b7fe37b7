// npm run bench:cli — how long the operator CLI takes to answer, started the way the README starts it (`npx hookrail`)
// and through its bin directly (`node_modules/.bin/hookrail`, what `npx` ends up running). Commands: `--help`,
// `dlq list` (a table read on a fresh migrated database) and `lag` (Kafka's group offsets against the topics' ends).
// Baseline in the same run: a bare `node -e ''` start. BENCH_CLI_RUNS (5) runs each; the tree is built first, so no run
// pays for a build. Needs Postgres and Kafka (KAFKA_BROKERS, default 127.0.0.1:9092).
import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { dropDatabase, freshDatabase, root } from '../lib/ingress-fixtures';
import { percentile } from '../lib/stats';

const RUNS = Number(process.env.BENCH_CLI_RUNS || 5);
const GOALS: Record<string, number> = { '--help': 300, 'dlq list': 1_000, lag: 1_000 };

/** Wall-clock milliseconds of each run of one command; every run must exit 0. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv): number[] {
  return Array.from({ length: RUNS }, () => {
    const started = performance.now();
    const run = spawnSync(command, args, { cwd: root, env, encoding: 'utf8' });
    const elapsed = performance.now() - started;
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    return elapsed;
  });
}

async function main(): Promise<void> {
  execFileSync(process.execPath, ['-e', "require('./scripts/run-built.js').buildIfStale()"], {
    cwd: root,
    stdio: 'inherit',
  });
  const name = `hookrail_bench_cli_${randomBytes(4).toString('hex')}`;
  const url = await freshDatabase(name);
  const env = { ...process.env, DATABASE_URL: url, KAFKA_BROKERS: process.env.KAFKA_BROKERS || '127.0.0.1:9092' };
  const bin = path.join(root, 'node_modules/.bin/hookrail');
  try {
    const rows: string[] = [];
    const row = (label: string, samples: number[], goal?: number) => {
      const median = percentile(samples, 50);
      const verdict = goal === undefined ? '—' : `≤ ${goal} ms: ${median <= goal ? 'met' : 'missed'}`;
      rows.push(`| ${label} | ${median.toFixed(0)} ms | ${Math.max(...samples).toFixed(0)} ms | ${verdict} |`);
    };
    row("bare `node -e ''` (baseline)", timed(process.execPath, ['-e', ''], env));
    for (const args of [['--help'], ['dlq', 'list'], ['lag']]) {
      const words = args.join(' ');
      row(`\`npx hookrail ${words}\``, timed('npx', ['hookrail', ...args], env), GOALS[words]);
      row(`\`node_modules/.bin/hookrail ${words}\``, timed(bin, args, env), GOALS[words]);
    }
    console.log(`bench:cli on ${os.cpus().length} cores, ${RUNS} runs each (median, slowest)\n`);
    console.log(['| command | median | slowest | goal (median) |', '|---|---|---|---|', ...rows].join('\n'));
  } finally {
    await dropDatabase(name);
  }
}

main().catch((error: Error) => {
  console.error(`bench:cli failed: ${error.stack}`);
  process.exit(1);
});
