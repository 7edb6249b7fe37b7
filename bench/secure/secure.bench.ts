// npm run bench:secure — what TLS and SCRAM cost: bench:relay's drain and bench:consumers' ledger on the plaintext
// broker and on the secure development broker (`npm run kafka:up:secure`: SASL_SSL, SCRAM-SHA-512, the relay and the
// consumers each logged in as its own principal with the ACLs of `npm run kafka:acls`), alternated in the same run.
// BENCH_ROUNDS rounds (2), each both benchmarks on both brokers, the brokers' order swapped every round (plaintext
// first in the odd rounds, secure first in the even ones). Each run is a child `npm run bench:relay`
// (BENCH_STEADY_SECONDS=0, BENCH_SCALE_RELAYS=0) or `bench:consumers` (BENCH_PROVIDER_BOUND=0) with BENCH_KAFKA set;
// other BENCH_* variables reach them (BENCH_BACKLOG, BENCH_EVENTS). It builds once (BENCH_SKIP_BUILD=1 reuses dist/)
// and prints each figure (rates, and the CPU time of the relay or the consumers process per 1,000 events) per broker
// and secure/plaintext, per round and of the means.
import { execFileSync, spawn } from 'node:child_process';
import { BenchKafkaMode } from '../lib/bench-kafka';
import { root } from '../lib/ingress-fixtures';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MODES: BenchKafkaMode[] = ['plaintext', 'secure'];

/** The figures compared, each read from the JSON line its benchmark prints last. */
const BENCHMARKS = {
  relay: {
    env: { BENCH_STEADY_SECONDS: '0', BENCH_SCALE_RELAYS: '0' },
    figures: {
      'relay drain, events/s': 'drainEventsPerSecond',
      'relay CPU ms / 1,000 events': 'drainCpuMsPer1000',
      'raw kafkajs producer, events/s': 'rawProducerEventsPerSecond',
    },
  },
  consumers: {
    env: { BENCH_PROVIDER_BOUND: '0' },
    figures: {
      'ledger drain, events/s': 'ledgerEventsPerSecond',
      'consumers CPU ms / 1,000 events': 'ledgerCpuMsPer1000',
      'raw kafkajs consume, events/s': 'rawConsumeEventsPerSecond',
    },
  },
} as const;
type Bench = keyof typeof BENCHMARKS;

/** Runs `npm run bench:<name>` on a broker, its output shown as it comes; resolves with its last JSON line. */
function runBench(name: Bench, mode: BenchKafkaMode): Promise<Record<string, number>> {
  const env = { ...process.env, ...BENCHMARKS[name].env, BENCH_KAFKA: mode, BENCH_SKIP_BUILD: '1' };
  const child = spawn('npm', ['run', '--silent', `bench:${name}`], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      const json = output
        .trim()
        .split('\n')
        .reverse()
        .find((line) => line.startsWith('{'));
      if (code !== 0 || !json) reject(new Error(`bench:${name} on the ${mode} broker exited with ${code}`));
      else resolve(JSON.parse(json));
    }),
  );
}

const figure = (value: number) => (value < 1000 ? value.toFixed(1) : Math.round(value).toLocaleString('en'));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== '1')
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  /** figure → broker → one value per round */
  const results = new Map<string, Record<BenchKafkaMode, number[]>>();
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? MODES : [...MODES].reverse();
    for (const name of Object.keys(BENCHMARKS) as Bench[]) {
      for (const mode of order) {
        process.stdout.write(`\nbench:secure: round ${round}, bench:${name}, ${mode} broker\n`);
        const figures = await runBench(name, mode);
        for (const [label, key] of Object.entries(BENCHMARKS[name].figures)) {
          const entry = results.get(label) ?? { plaintext: [], secure: [] };
          entry[mode].push(figures[key]);
          results.set(label, entry);
        }
      }
    }
  }
  const line = (...cells: string[]) => process.stdout.write(`${cells.map((cell) => cell.padEnd(32)).join(' ')}\n`);
  process.stdout.write(`\nbench:secure: ${ROUNDS} rounds, one figure per round\n`);
  line('figure', 'plaintext', 'secure', 'secure/plaintext (of means)');
  for (const [label, { plaintext, secure }] of results) {
    const ratios = secure.map((value, index) => (value / plaintext[index]).toFixed(2));
    line(
      label,
      plaintext.map(figure).join(', '),
      secure.map(figure).join(', '),
      `${ratios.join(', ')} (${(mean(secure) / mean(plaintext)).toFixed(2)})`,
    );
  }
  console.log(JSON.stringify(Object.fromEntries(results)));
}

main().catch((error: Error) => {
  console.error(`bench:secure: failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
