// npm run bench:relay — the relay's throughput and latency against the local Postgres and Kafka.
//   1. drain a 200k-row backlog with one relay process: events/s, and the relay's peak RSS;
//   2. the raw kafkajs producer ceiling for the same messages, same producer settings: events/s and the ratio;
//   3. steady state at 500 events/s, one event per transaction: p50/p99 from outbox insert to broker ack.
// The relay runs compiled (npm run build first, like production); BENCH_SKIP_BUILD=1 reuses dist/.
// Environment: BENCH_DATABASE_URL (a database it drops and recreates; default hookrail_bench_relay on the local
// server), KAFKA_BROKERS, BENCH_BACKLOG (200000), BENCH_RATE (500), BENCH_STEADY_SECONDS (20), BENCH_RELAY_NODE_OPTIONS
// (Node flags for the relay process only, e.g. --max-old-space-size=96 or --cpu-prof).
import 'reflect-metadata';
import { connect, createDatabaseIfAbsent, databaseName, migrate, withDatabase } from '@app/db';
import { createKafka, ensureTopics } from '@app/kafka';
import { addToOutbox, notifyOutbox, OutboxNotifier } from '@app/outbox';
import { cleanEnv, waitFor } from '@app/testing';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Partitioners } from 'kafkajs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { peakRssMb } from '../lib/process-memory';
import { AGGREGATES, benchEvent, insertBacklog } from './bench-events';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/hookrail_bench_relay';
const BROKERS = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const BACKLOG = Number(process.env.BENCH_BACKLOG || 200_000);
const RATE = Number(process.env.BENCH_RATE || 500);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS || 20);

async function recreateDatabase(): Promise<void> {
  const admin = new Client({ connectionString: withDatabase(DATABASE_URL, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${databaseName(DATABASE_URL)}" WITH (FORCE)`);
  await admin.end();
  await createDatabaseIfAbsent(DATABASE_URL);
  await migrate(DATABASE_URL);
}

async function published(dataSource: DataSource): Promise<{ done: number; first: Date | null; last: Date | null }> {
  const [row] = await dataSource.query(`SELECT count(*)::int AS done, min(published_at) AS first, max(published_at) AS last FROM outbox WHERE published_at IS NOT NULL`);
  return row;
}

const root = path.resolve(__dirname, '../..');

/** The relay as it runs in production: compiled JavaScript (npm run build), no TypeScript loader in memory. */
/** The compiled relay; BENCH_RELAY_NODE_OPTIONS go on its command line (so that --cpu-prof works too). */
function startCompiledRelay(env: NodeJS.ProcessEnv): { child: ChildProcess; exited: Promise<number | null> } {
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const nodeFlags = (process.env.BENCH_RELAY_NODE_OPTIONS || '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, 'dist/apps/relay/src/main.js'], { cwd: root, env, stdio: ['ignore', process.env.BENCH_RELAY_STDOUT ? 'inherit' : 'ignore', 'inherit'] });
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** The same messages through a bare kafkajs producer with the relay's settings, 1000 per sendBatch. */
async function rawProducerRate(dataSource: DataSource, topic: string): Promise<number> {
  const rows: Array<{ key: string; value: string; headers: Record<string, string> }> = await dataSource.query(`SELECT key, value, headers FROM outbox ORDER BY id`);
  const producer = createKafka('hookrail-bench-raw', BROKERS).producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const started = process.hrtime.bigint();
  for (let start = 0; start < rows.length; start += 1000) {
    await producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages: rows.slice(start, start + 1000) }] });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await producer.disconnect();
  return rows.length / seconds;
}

/** One event per transaction at `rate`/s for `seconds`, up to 16 at a time; returns insert→ack percentiles (ms). */
async function steadyState(dataSource: DataSource, topic: string): Promise<{ p50: number; p99: number; max: number; achieved: number }> {
  await dataSource.query('TRUNCATE outbox');
  const total = RATE * STEADY_SECONDS;
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  const notifier = new OutboxNotifier(() => notifyOutbox(dataSource));
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    if (inFlight.size >= 16) await Promise.race(inFlight);
    const insert = dataSource.transaction((manager) => addToOutbox(manager, topic, benchEvent(`order-${i % AGGREGATES}`))).then(() => {
      notifier.committed();
      inFlight.delete(insert);
    });
    inFlight.add(insert);
  }
  await Promise.all(inFlight);
  const achieved = total / ((Date.now() - started) / 1000);
  await waitFor(async () => (await published(dataSource)).done === total, { timeoutMs: 60_000, what: 'steady-state rows published' });
  const [row] = await dataSource.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, max(ms)::float8 AS max
       FROM (SELECT extract(epoch FROM published_at - created_at) * 1000 AS ms FROM outbox) AS latency`,
  );
  return { p50: row.p50, p99: row.p99, max: row.max, achieved };
}

async function main(): Promise<void> {
  await recreateDatabase();
  const dataSource = await connect({ url: DATABASE_URL, applicationName: 'hookrail-bench', poolSize: 16 });
  const topic = `bench.relay.${randomUUID().slice(0, 8)}`;
  const kafka = createKafka('hookrail-bench', BROKERS);
  await ensureTopics(kafka, [{ topic, numPartitions: 6 }]);
  const log = (line: string) => process.stdout.write(`bench:relay: ${line}\n`);

  let relay: ReturnType<typeof startCompiledRelay> | undefined;
  try {
    const insertStarted = Date.now();
    await insertBacklog(dataSource, topic, BACKLOG);
    await dataSource.query('VACUUM ANALYZE outbox');
    log(`backlog of ${BACKLOG} rows written in ${((Date.now() - insertStarted) / 1000).toFixed(1)} s`);

    const relayEnv = cleanEnv({ DATABASE_URL, KAFKA_BROKERS: BROKERS.join(','), METRICS_PORT: '0', LOG_LEVEL: 'warn' });
    relay = startCompiledRelay(relayEnv);
    const drainStarted = Date.now();
    const exitedEarly = relay.exited.then((code) => Promise.reject(new Error(`the relay exited (code ${code}) before the backlog drained`)));
    await Promise.race([waitFor(async () => (await published(dataSource)).done === BACKLOG, { timeoutMs: 600_000, intervalMs: 200, what: 'the backlog drained' }), exitedEarly]);
    exitedEarly.catch(() => undefined);
    const wall = (Date.now() - drainStarted) / 1000;
    const { first, last } = await published(dataSource);
    const drainSeconds = (last!.getTime() - first!.getTime()) / 1000;
    const drainRate = BACKLOG / drainSeconds;
    const drainRss = peakRssMb(relay.child.pid!);
    log(`drain: ${BACKLOG} rows in ${drainSeconds.toFixed(2)} s from first to last ack = ${Math.round(drainRate)} events/s (${wall.toFixed(1)} s wall incl. process start)`);

    const rawRate = await rawProducerRate(dataSource, topic);
    log(`raw kafkajs producer, same messages and settings: ${Math.round(rawRate)} events/s; relay/raw = ${(drainRate / rawRate).toFixed(2)}`);

    const steady = await steadyState(dataSource, topic);
    const peakRss = peakRssMb(relay.child.pid!);
    log(`steady state: ${Math.round(steady.achieved)} events/s offered, insert→ack p50 ${steady.p50.toFixed(1)} ms, p99 ${steady.p99.toFixed(1)} ms, max ${steady.max.toFixed(1)} ms`);
    log(`relay peak RSS: ${drainRss.toFixed(0)} MB after the drain, ${peakRss.toFixed(0)} MB overall`);

    relay.child.kill('SIGTERM');
    const code = await relay.exited;
    if (code !== 0) throw new Error(`relay exited with ${code}`);
    console.log(
      JSON.stringify({
        backlog: BACKLOG,
        drainEventsPerSecond: Math.round(drainRate),
        rawProducerEventsPerSecond: Math.round(rawRate),
        relayToRaw: Number((drainRate / rawRate).toFixed(2)),
        steady: { rate: RATE, p50Ms: Number(steady.p50.toFixed(1)), p99Ms: Number(steady.p99.toFixed(1)) },
        relayPeakRssMb: Math.round(peakRss),
      }),
    );
  } finally {
    if (relay?.child.exitCode === null) relay.child.kill('SIGKILL');
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
    await dataSource.destroy();
  }
}

main().catch((error: Error) => {
  console.error(`bench:relay: failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
