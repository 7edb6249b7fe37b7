// npm run bench:debezium — the relay's peer: Debezium's outbox event router draining the same rows into Kafka.
// It recreates a bench database, creates a 6-partition topic, builds and starts bench/relay/debezium (an embedded
// Debezium engine: PostgreSQL connector over pgoutput, no snapshot, outbox EventRouter routed by the `topic` column,
// an idempotent acks=all KafkaProducer), waits until the engine streams, writes the relay bench's 200k rows (1000 per
// statement) while the engine's change consumer holds its first batch, so the rows wait in the WAL as a backlog, then
// releases it and prints the engine's figures: events/s from first to last ack, and the JVM's peak RSS (VmHWM).
// BENCH_DEBEZIUM_LIVE=1 releases it before writing instead (the engine follows the writer).
// Afterwards (also on failure) it drops the replication slot, the publication and the database.
// Needs `wal_level = logical`, a JDK (17+) and Maven. Environment: BENCH_DATABASE_URL (default
// hookrail_bench_debezium on the local server), KAFKA_BROKERS, BENCH_BACKLOG (200000), BENCH_JAVA_OPTIONS.
import 'reflect-metadata';
import { connect, createDatabaseIfAbsent, databaseName, migrate, withDatabase } from '@app/db';
import { createKafka, kafkaFromEnv, ensureTopics } from '@app/kafka';
import { waitFor } from '@app/testing';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { insertBacklog } from './bench-events';

const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/hookrail_bench_debezium';
const BROKERS = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const BACKLOG = Number(process.env.BENCH_BACKLOG || 200_000);
const LIVE = process.env.BENCH_DEBEZIUM_LIVE === '1';
const SLOT = 'hookrail_bench_debezium';
const project = path.resolve(__dirname, 'debezium');
const log = (line: string) => process.stdout.write(`bench:debezium: ${line}\n`);

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(DATABASE_URL, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function recreateDatabase(): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS "${databaseName(DATABASE_URL)}" WITH (FORCE)`));
  await createDatabaseIfAbsent(DATABASE_URL);
  await migrate(DATABASE_URL);
}

/** Slot (its WAL sender first), publication and database: nothing left that retains WAL. */
async function dropReplicationState(): Promise<void> {
  await admin(async (client) => {
    await client.query(
      `SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = $1 AND active_pid IS NOT NULL`,
      [SLOT],
    );
    await waitFor(
      async () =>
        (await client.query(`SELECT 1 FROM pg_replication_slots WHERE slot_name = $1 AND active`, [SLOT])).rowCount ===
        0,
      { timeoutMs: 10_000, what: 'the slot released' },
    );
    await client.query(`SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1`, [
      SLOT,
    ]);
  });
  const db = new Client({ connectionString: DATABASE_URL });
  if (
    await db.connect().then(
      () => true,
      () => false,
    )
  ) {
    await db.query(`DROP PUBLICATION IF EXISTS ${SLOT}`);
    await db.end();
  }
  await admin((client) => client.query(`DROP DATABASE IF EXISTS "${databaseName(DATABASE_URL)}" WITH (FORCE)`));
}

function startEngine(): { child: ChildProcess; output: string[]; exited: Promise<number | null> } {
  const classpathFile = path.join(project, 'target', 'classpath.txt');
  execFileSync(
    'mvn',
    [
      '-B',
      '-q',
      '-f',
      path.join(project, 'pom.xml'),
      'compile',
      'dependency:build-classpath',
      `-Dmdep.outputFile=${classpathFile}`,
    ],
    { stdio: 'inherit' },
  );
  const classpath = [path.join(project, 'target', 'classes'), readFileSync(classpathFile, 'utf8').trim()].join(
    path.delimiter,
  );
  const url = new URL(DATABASE_URL);
  const javaOptions = (process.env.BENCH_JAVA_OPTIONS || '').split(' ').filter(Boolean);
  const child = spawn(
    'java',
    [
      ...javaOptions,
      '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
      '-Dorg.slf4j.simpleLogger.log.io.debezium.metrics=error',
      '-cp',
      classpath,
      'dev.hookrail.bench.DebeziumOutboxBench',
    ],
    {
      env: {
        ...process.env,
        PGHOST: url.hostname,
        PGPORT: url.port || '5432',
        PGUSER: decodeURIComponent(url.username) || 'postgres',
        PGPASSWORD: decodeURIComponent(url.password),
        PGDATABASE: databaseName(DATABASE_URL),
        KAFKA_BROKERS: BROKERS.join(','),
        EXPECTED: String(BACKLOG),
        SLOT,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const output: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => output.push(...chunk.split('\n').filter(Boolean)));
  return { child, output, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

async function main(): Promise<void> {
  await recreateDatabase();
  const dataSource = await connect({ url: DATABASE_URL, applicationName: 'hookrail-bench', poolSize: 4 });
  const topic = `bench.debezium.${randomUUID().slice(0, 8)}`;
  const kafka = createKafka('hookrail-bench', kafkaFromEnv());
  await ensureTopics(kafka, [{ topic, numPartitions: 6 }]);
  let engine: ReturnType<typeof startEngine> | undefined;
  try {
    engine = startEngine();
    const started = engine;
    await waitFor(async () => started.output.includes('streaming') || started.child.exitCode !== null, {
      timeoutMs: 120_000,
      what: 'the engine task started',
    });
    await waitFor(
      async () =>
        started.child.exitCode !== null ||
        (await dataSource.query(`SELECT 1 FROM pg_replication_slots WHERE slot_name = $1 AND active`, [SLOT]))
          .length === 1,
      { timeoutMs: 60_000, what: 'the replication slot streaming' },
    );
    if (started.child.exitCode !== null) throw new Error(`the engine exited with ${started.child.exitCode}`);
    log(`engine streaming; writing rows${LIVE ? ' (engine released)' : ' (engine held)'}`);

    if (LIVE) started.child.stdin!.write('go\n');
    const insertStarted = Date.now();
    await insertBacklog(dataSource, topic, BACKLOG);
    log(`${BACKLOG} rows written in ${((Date.now() - insertStarted) / 1000).toFixed(1)} s`);
    if (!LIVE) started.child.stdin!.write('go\n');

    const code = await engine.exited;
    const result = engine.output.find((line) => line.startsWith('{'));
    if (code !== 0 || !result) throw new Error(`the engine exited with ${code}`);
    const figures = JSON.parse(result) as {
      events: number;
      seconds: number;
      eventsPerSecond: number;
      peakRssMb: number;
    };
    log(
      `drain: ${figures.events} events in ${figures.seconds.toFixed(2)} s from first to last ack = ${figures.eventsPerSecond} events/s; JVM peak RSS ${figures.peakRssMb} MB`,
    );
    console.log(
      JSON.stringify({
        backlog: BACKLOG,
        debeziumEventsPerSecond: figures.eventsPerSecond,
        debeziumPeakRssMb: figures.peakRssMb,
      }),
    );
  } finally {
    if (engine?.child.exitCode === null) {
      engine.child.kill('SIGKILL');
      await engine.exited;
    }
    await dataSource.destroy();
    await dropReplicationState();
    const kafkaAdmin = kafka.admin();
    await kafkaAdmin.connect();
    await kafkaAdmin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await kafkaAdmin.disconnect();
  }
}

main().catch((error: Error) => {
  console.error(`bench:debezium: failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
