// npm run bench:consumers — the ledger consuming a 200k-event topic with dedupe, against a raw kafkajs consume of
// the same topic in the same run. Needs Postgres and Kafka (KAFKA_BROKERS, default 127.0.0.1:9092; BENCH_KAFKA=secure:
// the secure development broker, the consumers logged in as their own principal).
// The consumers app runs as it ships: compiled (tsc + tsc-alias, as `npm run build` does) into a temporary directory;
// BENCH_SKIP_BUILD=1 runs the one in dist/ (npm run build) instead.
// Env: BENCH_EVENTS (default 200000), BENCH_PARTITIONS (6), HOOKRAIL_BENCH_PG_URL (server to create the bench db on),
// BENCH_CONSUMER_NODE_OPTIONS (Node flags of the consumers process instead of those of its start script; set but
// empty: none).
// BENCH_KEY_ORDER (`park`, the default: the ledger as it ships, parking a key behind a dead letter; `off`: the same
// run with CONSUMER_KEY_PARKING=off, for the cost of the parked-key check that every batch transaction makes).
// Then the provider-bound phase: the notifier (which applies records by key) sending BENCH_EMAILS (20000) emails for
// events of BENCH_KEYS (200) orders over BENCH_PARTITIONS partitions to the development email provider answering in
// BENCH_PROVIDER_LATENCY_MS (50); each key's emails checked in offset order in the provider's log. Baselines in the
// same run: the same with CONSUMER_KEY_CONCURRENCY=1 (one record at a time per partition, BENCH_EMAILS_SERIAL 1500
// emails), and a bare HTTP client keeping as many calls in flight as the notifier may. BENCH_PROVIDER_BOUND=0 skips it.
import 'reflect-metadata';
import { connect, createDatabaseIfAbsent, migrate, withDatabase } from '@app/db';
import { freePort } from '@app/testing';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DevEmailProvider } from '../../apps/consumers/src/notifier/dev-provider/email-provider.server';
import { appNodeOptions } from '../lib/app-node-options';
import { benchKafka } from '../lib/bench-kafka';
import { cpuTimeMs } from '../lib/process-memory';
import { deleteTopicsStartingWith } from '../lib/kafka-topics';
import { orderEvents, produceAll } from './bench-orders';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const PARTITIONS = Number(process.env.BENCH_PARTITIONS ?? 6);
const SERVER_URL = process.env.HOOKRAIL_BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const KEY_ORDER = process.env.BENCH_KEY_ORDER ?? 'park';
const EMAILS = Number(process.env.BENCH_EMAILS ?? 20_000);
const EMAILS_SERIAL = Number(process.env.BENCH_EMAILS_SERIAL ?? 1_500);
const KEYS = Number(process.env.BENCH_KEYS ?? 200);
const PROVIDER_LATENCY_MS = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 50);
const PROVIDER_BOUND = process.env.BENCH_PROVIDER_BOUND !== '0';
/** CONSUMER_MAX_IN_FLIGHT's default: what the bare client keeps in flight too. */
const MAX_IN_FLIGHT = 128;
if (KEY_ORDER !== 'park' && KEY_ORDER !== 'off') throw new Error('BENCH_KEY_ORDER must be "park" or "off"');
const run = randomBytes(4).toString('hex');
const namespace = `bench-${run}.`;
const topic = `${namespace}shop.orders`;
const databaseUrl = withDatabase(SERVER_URL, `hookrail_bench_consumers_${run}`);
const bench = benchKafka('hookrail-bench-consumers');
const kafka = bench.kafka;
const root = path.resolve(__dirname, '../..');

/** Compiles the apps the way the Docker image does, into a temporary directory; returns the consumers entry. */
function buildConsumers(): { entry: string; cleanup(): void } {
  if (process.env.BENCH_SKIP_BUILD === '1')
    return { entry: path.join(root, 'dist/apps/consumers/src/main.js'), cleanup() {} };
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'hookrail-bench-'));
  const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
  try {
    execFileSync(bin('tsc'), ['-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: root, stdio: 'ignore' });
  } catch {
    // A type error anywhere in the tree makes tsc exit 1 but it still emits; the entry check below is what matters.
  }
  execFileSync(bin('tsc-alias'), ['-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: root, stdio: 'inherit' });
  symlinkSync(path.join(root, 'node_modules'), path.join(outDir, 'node_modules'));
  const entry = path.join(outDir, 'apps/consumers/src/main.js');
  if (!existsSync(entry)) throw new Error('the build did not produce apps/consumers/src/main.js');
  return { entry, cleanup: () => rmSync(outDir, { recursive: true, force: true }) };
}

/** Baseline: kafkajs alone reading the same topic (no parsing, no database), first message to last. */
async function rawConsumeRate(): Promise<number> {
  const consumer = kafka.consumer({ groupId: `${namespace}raw`, maxWaitTimeInMs: 500 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let seen = 0;
  let first = 0;
  const done = new Promise<number>((resolve) => {
    void consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        first ||= performance.now();
        seen += batch.messages.length;
        if (seen >= EVENTS) resolve(performance.now());
      },
    });
  });
  const last = await done;
  await consumer.disconnect();
  return EVENTS / ((last - first) / 1000);
}

async function processedSoFar(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return [...text.matchAll(/^hookrail_consumer_processed_total\{[^}]*\} (\d+)/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

/**
 * The real consumers app as a child process: first processed event to the last, its peak RSS and its CPU time (user
 * + system) from its start to the last event.
 */
async function consumersRate(
  entry: string,
  count: number,
  env: Record<string, string>,
): Promise<{ rate: number; peakRssMb: number; cpuMs: number }> {
  const metricsPort = await freePort();
  let stderr = '';
  const child = spawn(
    process.execPath,
    [...appNodeOptions('consumers', process.env.BENCH_CONSUMER_NODE_OPTIONS), entry],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        ...bench.appEnv('consumers'),
        // The group alone: the dead-letter store that start:consumers also runs would measure itself too.
        DEAD_LETTER_STORE: 'false',
        KAFKA_NAMESPACE: namespace,
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'warn',
        ...env,
      },
    },
  );
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let first = 0;
  let processed = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`consumers exited: ${stderr}`);
    processed = await processedSoFar(metricsPort).catch(() => 0);
    if (processed > 0) first ||= performance.now();
    if (processed >= count) break;
    // Every 100 ms: a scrape costs the process some CPU, and the figure is over seconds.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const last = performance.now();
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const peakRssMb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
  const cpuMs = cpuTimeMs(child.pid!);
  child.kill('SIGTERM');
  await exited;
  return { rate: processed / ((last - first) / 1000), peakRssMb, cpuMs };
}

/** The ledger group, as it ships (or with key parking off), over the 200k-event topic. */
function ledgerRate(entry: string): ReturnType<typeof consumersRate> {
  return consumersRate(entry, EVENTS, {
    CONSUMER_GROUPS: 'ledger',
    CONSUMER_KEY_PARKING: KEY_ORDER === 'park' ? 'service' : 'off',
  });
}

/**
 * The notifier against the development email provider answering in PROVIDER_LATENCY_MS: `count` events of KEYS
 * orders on a topic of their own (a namespace of their own), `keyConcurrency` records per partition. Every key's
 * emails must appear in the provider's log in offset order, each once.
 */
async function providerBoundRate(
  entry: string,
  count: number,
  keyConcurrency: number,
): ReturnType<typeof consumersRate> {
  const apiKey = randomBytes(16).toString('hex');
  const provider = await DevEmailProvider.start({ apiKey, behaviour: { latencyMs: PROVIDER_LATENCY_MS } });
  const phase = `${namespace}k${keyConcurrency}.`;
  const events = orderEvents(count, KEYS);
  try {
    await bench.prepare(phase, [{ topic: `${phase}shop.orders`, numPartitions: PARTITIONS }]);
    await produceAll(kafka, `${phase}shop.orders`, events);
    const result = await consumersRate(entry, count, {
      CONSUMER_GROUPS: 'notifier',
      KAFKA_NAMESPACE: phase,
      EMAIL_PROVIDER_URL: provider.url,
      EMAIL_PROVIDER_API_KEY: apiKey,
      CONSUMER_KEY_CONCURRENCY: String(keyConcurrency),
    });
    const position = new Map(events.map((event, index) => [event.id, index]));
    const sent = new Map<string, number[]>();
    for (const email of provider.emails) {
      const index = position.get(email.idempotencyKey)!;
      const key = `ord-${index % KEYS}`;
      sent.set(key, [...(sent.get(key) ?? []), index]);
    }
    const outOfOrder = [...sent.values()].filter((indexes) => indexes.some((at, i) => i > 0 && at < indexes[i - 1]));
    if (provider.emails.length !== count || outOfOrder.length > 0)
      throw new Error(`${provider.emails.length} emails for ${count} events; ${outOfOrder.length} keys out of order`);
    return result;
  } finally {
    await provider.close();
  }
}

/** Baseline: a bare keep-alive HTTP client keeping MAX_IN_FLIGHT calls in flight to the same provider. */
async function bareClientRate(count: number): Promise<number> {
  const apiKey = randomBytes(16).toString('hex');
  const provider = await DevEmailProvider.start({ apiKey, behaviour: { latencyMs: PROVIDER_LATENCY_MS } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT });
  const body = JSON.stringify({ from: 'shop@example.com', to: 'ada@example.com', subject: 'Order', text: 'Thanks' });
  const call = (key: string) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(
        `${provider.url}/v1/emails`,
        {
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
        },
        (response) => response.resume().once('end', resolve),
      );
      request.once('error', reject).end(body);
    });
  try {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: MAX_IN_FLIGHT }, async () => {
        while (next < count) await call(`bare-${next++}`);
      }),
    );
    return count / ((performance.now() - started) / 1000);
  } finally {
    agent.destroy();
    await provider.close();
  }
}

async function main(): Promise<void> {
  await createDatabaseIfAbsent(databaseUrl);
  await migrate(databaseUrl);
  let build: ReturnType<typeof buildConsumers> | undefined;
  try {
    await bench.prepare(namespace, [{ topic, numPartitions: PARTITIONS }]);
    build = buildConsumers();
    process.stdout.write(`producing ${EVENTS} events to ${PARTITIONS} partitions (Kafka: ${bench.mode})...\n`);
    await produceAll(kafka, topic, orderEvents(EVENTS));
    const raw = await rawConsumeRate();
    const ledger = await ledgerRate(build.entry);
    const dataSource = await connect({ url: databaseUrl, applicationName: 'bench-consumers', poolSize: 1 });
    const [{ entries, dedupe }] = await dataSource.query(
      `SELECT (SELECT count(*) FROM ledger_entries)::int AS entries, (SELECT count(*) FROM processed_events)::int AS dedupe`,
    );
    await dataSource.destroy();
    if (entries !== EVENTS || dedupe !== EVENTS)
      throw new Error(`expected ${EVENTS} ledger entries and dedupe rows, found ${entries} and ${dedupe}`);
    const line = (label: string, value: string) => process.stdout.write(`${label.padEnd(52)} ${value}\n`);
    line('raw kafkajs consume (baseline)', `${Math.round(raw).toLocaleString('en')} events/s`);
    line(
      `ledger (key order: ${KEY_ORDER}): validate + dedupe + entry`,
      `${Math.round(ledger.rate).toLocaleString('en')} events/s`,
    );
    line('ledger / baseline', `${(ledger.rate / raw).toFixed(2)}`);
    line('consumers process peak RSS', `${ledger.peakRssMb.toFixed(0)} MB`);
    const cpuPerThousand = (ledger.cpuMs / EVENTS) * 1000;
    line('consumers process CPU per 1,000 events', `${cpuPerThousand.toFixed(1)} ms (from its start)`);
    const figures = {
      kafka: bench.mode,
      rawConsumeEventsPerSecond: Math.round(raw),
      ledgerEventsPerSecond: Math.round(ledger.rate),
      ledgerCpuMsPer1000: Number(cpuPerThousand.toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify({ ...figures, peakRssMb: Math.round(ledger.peakRssMb) })}\n`);
    if (PROVIDER_BOUND) {
      process.stdout.write(
        `\nprovider-bound: notifier, ${KEYS} keys, ${PARTITIONS} partitions, provider answering in ${PROVIDER_LATENCY_MS} ms\n`,
      );
      const bare = await bareClientRate(EMAILS);
      const serial = await providerBoundRate(build.entry, EMAILS_SERIAL, 1);
      const keyed = await providerBoundRate(build.entry, EMAILS, 32);
      const ceiling = (PARTITIONS * 1000) / PROVIDER_LATENCY_MS;
      line(
        `bare HTTP client, ${MAX_IN_FLIGHT} in flight (baseline)`,
        `${Math.round(bare).toLocaleString('en')} calls/s`,
      );
      line(
        'notifier, one record at a time per partition',
        `${Math.round(serial.rate).toLocaleString('en')} emails/s (ceiling ${ceiling}/s)`,
      );
      line('notifier, by key (as it ships)', `${Math.round(keyed.rate).toLocaleString('en')} emails/s`);
      line('by key / one at a time', `${(keyed.rate / serial.rate).toFixed(1)}`);
      line('by key / bare client', `${(keyed.rate / bare).toFixed(2)}`);
      line('every key in offset order in the provider log', 'yes');
      line('consumers process peak RSS (by key)', `${keyed.peakRssMb.toFixed(0)} MB`);
    }
  } finally {
    build?.cleanup();
    await deleteTopicsStartingWith(kafka, namespace);
    const client = new Client({ connectionString: SERVER_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "hookrail_bench_consumers_${run}" WITH (FORCE)`);
    await client.end();
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`bench:consumers: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
