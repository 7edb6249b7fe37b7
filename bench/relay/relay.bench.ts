// npm run bench:relay — the relay's throughput and latency against the local Postgres and Kafka.
//   1. steady state at 500 events/s, one event per transaction, after a warm-up: p50/p99 from outbox insert to ack;
//   2. drain a 200k-row backlog with one relay process: events/s, and the relay's peak RSS;
//   3. the raw kafkajs producer ceiling for the same messages, same producer settings: events/s and the ratio;
//   4. the same backlog again, drained by one relay process per core (BENCH_SCALE_RELAYS, one drain loop each):
//      how the relay scales out where one Node.js thread is the limit.
// The relay runs compiled (npm run build first, like production); BENCH_SKIP_BUILD=1 reuses dist/.
// Environment: BENCH_DATABASE_URL (a database it drops and recreates; default hookrail_bench_relay on the local
// server), KAFKA_BROKERS, BENCH_KAFKA (`plaintext`, or `secure`: the secure development broker, the relay logged in
// as its own principal), BENCH_BACKLOG (200000), BENCH_SCALE_RELAYS (the number of cores; 0 skips step 4),
// BENCH_RATE (500), BENCH_WARMUP_SECONDS (5), BENCH_STEADY_SECONDS (20; 0 skips step 1), BENCH_RELAY_NODE_OPTIONS
// (Node flags for the relay processes instead of those of its start script, e.g. other heap limits or --cpu-prof; set
// but empty: none). RELAY_* variables reach the relays.
import 'reflect-metadata';
import { connect, createDatabaseIfAbsent, databaseName, migrate, withDatabase } from '@app/db';
import { addToOutbox, notifyOutbox, OutboxNotifier } from '@app/outbox';
import { cleanEnv, waitFor } from '@app/testing';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Partitioners } from 'kafkajs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { appNodeOptions } from '../lib/app-node-options';
import { BenchKafka, benchKafka } from '../lib/bench-kafka';
import { root, stop } from '../lib/ingress-fixtures';
import { deleteTopicsStartingWith } from '../lib/kafka-topics';
import { cpuTimeMs, peakRssMb } from '../lib/process-memory';
import { AGGREGATES, benchEvent, insertBacklog } from './bench-events';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/hookrail_bench_relay';
const BACKLOG = Number(process.env.BENCH_BACKLOG || 200_000);
const RATE = Number(process.env.BENCH_RATE || 500);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS || 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const SCALE_RELAYS = Number(process.env.BENCH_SCALE_RELAYS ?? availableParallelism());

async function recreateDatabase(): Promise<void> {
  const admin = new Client({ connectionString: withDatabase(DATABASE_URL, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${databaseName(DATABASE_URL)}" WITH (FORCE)`);
  await admin.end();
  await createDatabaseIfAbsent(DATABASE_URL);
  await migrate(DATABASE_URL);
}

/** True once no row waits: one probe of the unpublished-rows index, cheap enough to poll while the relay drains. */
async function drained(dataSource: DataSource): Promise<boolean> {
  const rows = await dataSource.query(`SELECT 1 FROM outbox WHERE published_at IS NULL ORDER BY lane, id LIMIT 1`);
  return rows.length === 0;
}

/** First and last acknowledgement; a full scan, so only once the drain is over. */
async function publishedSpan(dataSource: DataSource): Promise<{ first: Date; last: Date }> {
  const [row] = await dataSource.query(`SELECT min(published_at) AS first, max(published_at) AS last FROM outbox`);
  return row;
}

interface RelayProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * The relay as it runs in production: compiled JavaScript (npm run build), no TypeScript loader in memory.
 * It runs with the Node flags of its start script, or BENCH_RELAY_NODE_OPTIONS (so that --cpu-prof works too).
 */
function startCompiledRelay(env: NodeJS.ProcessEnv): RelayProcess {
  const nodeFlags = appNodeOptions('relay', process.env.BENCH_RELAY_NODE_OPTIONS);
  const child = spawn(process.execPath, [...nodeFlags, 'dist/apps/relay/src/main.js'], {
    cwd: root,
    env,
    stdio: ['ignore', process.env.BENCH_RELAY_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** SIGTERM, as an orchestrator stops it: the relay must finish its batch and exit cleanly. */
async function stopRelay(relay: RelayProcess): Promise<void> {
  await stop(relay.child);
  if (relay.child.exitCode !== 0)
    throw new Error(`relay exited with ${relay.child.exitCode ?? relay.child.signalCode}`);
}

/** A fresh backlog of `BACKLOG` unpublished rows, vacuumed and analysed like a table that has been in use. */
async function writeBacklog(dataSource: DataSource, topic: string): Promise<number> {
  const started = Date.now();
  await dataSource.query('TRUNCATE outbox');
  await insertBacklog(dataSource, topic, BACKLOG);
  await dataSource.query('VACUUM ANALYZE outbox');
  return (Date.now() - started) / 1000;
}

/** Starts `count` relays on a full backlog and waits until it is drained; events/s from the first to the last ack. */
async function drainWith(
  dataSource: DataSource,
  count: number,
  env: NodeJS.ProcessEnv,
): Promise<{ relays: RelayProcess[]; rate: number; seconds: number }> {
  const relays = Array.from({ length: count }, () => startCompiledRelay(env));
  const exitedEarly = Promise.race(relays.map((relay) => relay.exited)).then((code) =>
    Promise.reject(new Error(`a relay exited (code ${code}) before the backlog drained`)),
  );
  exitedEarly.catch(() => undefined);
  await Promise.race([
    waitFor(() => drained(dataSource), { timeoutMs: 600_000, intervalMs: 200, what: 'the backlog drained' }),
    exitedEarly,
  ]);
  const { first, last } = await publishedSpan(dataSource);
  const seconds = (last.getTime() - first.getTime()) / 1000;
  return { relays, rate: BACKLOG / seconds, seconds };
}

/** The same messages through a bare kafkajs producer with the relay's settings, 1000 per sendBatch. */
async function rawProducerRate(dataSource: DataSource, topic: string, bench: BenchKafka): Promise<number> {
  const rows: Array<{ key: string; value: string; headers: Record<string, string> }> = await dataSource.query(
    `SELECT key, value, headers FROM outbox ORDER BY id`,
  );
  const producer = bench.kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const started = process.hrtime.bigint();
  for (let start = 0; start < rows.length; start += 1000) {
    await producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages: rows.slice(start, start + 1000) }] });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await producer.disconnect();
  return rows.length / seconds;
}

/**
 * One event per transaction at `rate`/s for the warm-up and then for `seconds`, up to 16 at a time; returns the
 * insert→ack percentiles (ms) of the events after the warm-up.
 */
async function steadyState(
  dataSource: DataSource,
  topic: string,
): Promise<{ p50: number; p99: number; max: number; achieved: number }> {
  await dataSource.query('TRUNCATE outbox');
  await offer(dataSource, topic, RATE * WARMUP_SECONDS);
  await waitFor(() => drained(dataSource), { timeoutMs: 60_000, what: 'warm-up rows published' });
  const [{ after }] = await dataSource.query(`SELECT coalesce(max(id), 0) AS after FROM outbox`);
  const total = RATE * STEADY_SECONDS;
  const achieved = await offer(dataSource, topic, total);
  await waitFor(() => drained(dataSource), { timeoutMs: 60_000, what: 'steady-state rows published' });
  const [row] = await dataSource.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99, max(ms)::float8 AS max
       FROM (SELECT extract(epoch FROM published_at - created_at) * 1000 AS ms FROM outbox WHERE id > $1) AS latency`,
    [after],
  );
  return { p50: row.p50, p99: row.p99, max: row.max, achieved };
}

/** Writes `total` events at RATE/s, one per transaction, up to 16 at a time; returns the rate achieved. */
async function offer(dataSource: DataSource, topic: string, total: number): Promise<number> {
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  const notifier = new OutboxNotifier((lanes) => notifyOutbox(dataSource, lanes));
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    if (inFlight.size >= 16) await Promise.race(inFlight);
    const insert = dataSource
      .transaction((manager) => addToOutbox(manager, topic, benchEvent(`order-${i % AGGREGATES}`)))
      .then(() => {
        notifier.committed();
        inFlight.delete(insert);
      });
    inFlight.add(insert);
  }
  await Promise.all(inFlight);
  return total / ((Date.now() - started) / 1000);
}

async function main(): Promise<void> {
  await recreateDatabase();
  const dataSource = await connect({ url: DATABASE_URL, applicationName: 'hookrail-bench', poolSize: 16 });
  // An event topic of the contracts under a namespace of its own: on the secure broker the relay's ACLs allow it.
  const namespace = `bench-relay-${randomUUID().slice(0, 8)}.`;
  const topic = `${namespace}shop.orders`;
  const bench = benchKafka('hookrail-bench');
  const log = (line: string) => process.stdout.write(`bench:relay: ${line}\n`);
  if (process.env.BENCH_SKIP_BUILD !== '1')
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const relayEnv = cleanEnv({ DATABASE_URL, ...bench.appEnv('relay'), METRICS_PORT: '0', LOG_LEVEL: 'warn' });
  log(`Kafka: ${bench.mode}`);

  const running: RelayProcess[] = [];
  try {
    await bench.prepare(namespace, [{ topic, numPartitions: 6 }]);
    // The steady state first, on a quiet box: after the drains the broker and Postgres still write back hundreds of
    // megabytes for a while, which is a different measurement.
    let steady: { p50: number; p99: number; rssMb: number } | undefined;
    if (STEADY_SECONDS > 0) {
      running.push(startCompiledRelay(relayEnv));
      const latency = await steadyState(dataSource, topic);
      steady = { ...latency, rssMb: peakRssMb(running[0].child.pid!) };
      log(
        `steady state (after ${WARMUP_SECONDS} s of warm-up): ${Math.round(latency.achieved)} events/s offered for ${STEADY_SECONDS} s, ` +
          `insert→ack p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms; relay peak RSS ${steady.rssMb.toFixed(0)} MB`,
      );
      await stopRelay(running.pop()!);
    }

    log(`backlog of ${BACKLOG} rows written in ${(await writeBacklog(dataSource, topic)).toFixed(1)} s`);
    const single = await drainWith(dataSource, 1, relayEnv);
    running.push(...single.relays);
    const drainRss = peakRssMb(single.relays[0].child.pid!);
    // From the relay's start (connections, logins included) to the end of the drain.
    const drainCpuPerThousand = (cpuTimeMs(single.relays[0].child.pid!) / BACKLOG) * 1000;
    log(
      `drain, one relay: ${BACKLOG} rows in ${single.seconds.toFixed(2)} s from first to last ack = ${Math.round(single.rate)} events/s; relay peak RSS ${drainRss.toFixed(0)} MB, CPU ${drainCpuPerThousand.toFixed(1)} ms per 1,000 events`,
    );
    await stopRelay(running.pop()!);

    const rawRate = await rawProducerRate(dataSource, topic, bench);
    log(
      `raw kafkajs producer, same messages and settings: ${Math.round(rawRate)} events/s; relay/raw = ${(single.rate / rawRate).toFixed(2)}`,
    );

    let scaled: { rate: number; rssMb: number } | undefined;
    if (SCALE_RELAYS > 0) {
      await writeBacklog(dataSource, topic);
      const scale = await drainWith(dataSource, SCALE_RELAYS, { ...relayEnv, RELAY_LOOPS: '1' });
      running.push(...scale.relays);
      scaled = { rate: scale.rate, rssMb: Math.max(...scale.relays.map((relay) => peakRssMb(relay.child.pid!))) };
      log(
        `drain, ${SCALE_RELAYS} relays (one loop each): ${BACKLOG} rows in ${scale.seconds.toFixed(2)} s = ${Math.round(scale.rate)} events/s` +
          ` (${(scale.rate / single.rate).toFixed(2)}× one relay, ${(scale.rate / rawRate).toFixed(2)}× the raw producer); peak RSS ${scaled.rssMb.toFixed(0)} MB per relay`,
      );
      for (const relay of running.splice(0)) await stopRelay(relay);
    }

    console.log(
      JSON.stringify({
        kafka: bench.mode,
        backlog: BACKLOG,
        drainEventsPerSecond: Math.round(single.rate),
        drainCpuMsPer1000: Number(drainCpuPerThousand.toFixed(1)),
        rawProducerEventsPerSecond: Math.round(rawRate),
        relayToRaw: Number((single.rate / rawRate).toFixed(2)),
        scaleOut: scaled && {
          relays: SCALE_RELAYS,
          eventsPerSecond: Math.round(scaled.rate),
          peakRssMbPerRelay: Math.round(scaled.rssMb),
        },
        steady: steady && {
          rate: RATE,
          p50Ms: Number(steady.p50.toFixed(1)),
          p99Ms: Number(steady.p99.toFixed(1)),
          relayPeakRssMb: Math.round(steady.rssMb),
        },
        relayPeakRssMb: Math.round(drainRss),
      }),
    );
  } finally {
    for (const relay of running) if (relay.child.exitCode === null) relay.child.kill('SIGKILL');
    await deleteTopicsStartingWith(bench.kafka, namespace);
    await dataSource.destroy();
  }
}

main().catch((error: Error) => {
  console.error(`bench:relay: failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
