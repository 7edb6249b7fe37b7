// npm run bench:failover — how long work stalls after `kill -9` of one of two processes under a steady stream:
// consumers (the ledger group, its partitions move through a Kafka rebalance) and relays (their outbox lanes move
// through Postgres advisory locks). Needs Postgres and Kafka (KAFKA_BROKERS, default 127.0.0.1:9092).
// Env: BENCH_ROUNDS (3 kills of each), BENCH_RATE (events per second, 100), BENCH_CONSUMER_ENV (extra consumers
// environment, e.g. `KAFKA_SESSION_TIMEOUT_MS=30000,KAFKA_HEARTBEAT_INTERVAL_MS=3000` for older settings),
// HOOKRAIL_BENCH_PG_URL (server to create the bench database on).
import 'reflect-metadata';
import { SHOP_ORDER_PLACED_V1, toKafkaRecord } from '@app/contracts';
import { connect, createDatabaseIfAbsent, migrate, withDatabase } from '@app/db';
import { createKafka, kafkaFromEnv, ensureTopics } from '@app/kafka';
import { addToOutbox, notifyOutbox } from '@app/outbox';
import { AppProcess, cleanEnv, waitFor } from '@app/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { deleteTopicsStartingWith } from '../lib/kafka-topics';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const PARTITIONS = 6;
const BROKERS = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const SERVER_URL = process.env.HOOKRAIL_BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const EXTRA_CONSUMER_ENV = Object.fromEntries(
  (process.env.BENCH_CONSUMER_ENV ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=') as [string, string]),
);
const run = randomBytes(4).toString('hex');
const namespace = `bench-failover-${run}.`;
const topic = `${namespace}shop.orders`;
const relayTopic = `${namespace}relay-out`;
const databaseUrl = withDatabase(SERVER_URL, `hookrail_bench_failover_${run}`);
const kafka = createKafka('hookrail-bench-failover', kafkaFromEnv());

function orderRecord(seq: number) {
  const orderId = `ord-${seq % 500}`;
  return toKafkaRecord({
    specversion: '1.0',
    id: randomUUID(),
    source: '/bench',
    type: SHOP_ORDER_PLACED_V1,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    subject: orderId,
    data: {
      orderId,
      customer: { id: `cus-${seq % 50}`, email: 'ada@example.com' },
      amount: 1000,
      currency: 'EUR',
      lineItems: [{ sku: 'book', quantity: 1, unitAmount: 1000 }],
    },
  });
}

/** Calls `tick(n)` RATE times a second, in slices of 50 ms, until stopped. */
function steadily(tick: (count: number) => Promise<void>): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    let sent = 0;
    const started = Date.now();
    while (running) {
      const due = Math.floor(((Date.now() - started) / 1000) * RATE) - sent;
      if (due > 0) {
        await tick(due);
        sent += due;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** The time after `since` at which every partition's committed offset has moved at least once (ms after `since`). */
async function untilEveryPartitionMoves(groupId: string, since: number): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const read = async () =>
      new Map(
        (await admin.fetchOffsets({ groupId, topics: [topic] }))[0].partitions.map((p) => [p.partition, p.offset]),
      );
    const start = await read();
    const moved = new Map<number, number>();
    while (moved.size < PARTITIONS) {
      const now = await read();
      for (const [partition, offset] of now)
        if (!moved.has(partition) && offset !== start.get(partition)) moved.set(partition, Date.now() - since);
      if (Date.now() - since > 180_000) throw new Error('no takeover within 180 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Math.max(...moved.values());
  } finally {
    await admin.disconnect();
  }
}

function startConsumers(): AppProcess {
  return AppProcess.start(
    'consumers',
    cleanEnv({
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: BROKERS.join(','),
      CONSUMER_GROUPS: 'ledger',
      DEAD_LETTER_STORE: 'false',
      KAFKA_NAMESPACE: namespace,
      TOPIC_PARTITIONS: String(PARTITIONS),
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      ...EXTRA_CONSUMER_ENV,
    }),
  );
}

async function consumersRounds(): Promise<number[]> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  let seq = 0;
  const stream = steadily(async (count) => {
    const messages = Array.from({ length: count }, () => ({ ...orderRecord(seq), partition: seq++ % PARTITIONS }));
    await producer.send({ topic, acks: -1, messages });
  });
  const stalls: number[] = [];
  const processes = [startConsumers(), startConsumers()];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Both members hold partitions: every partition moves, and the group has two members.
      await waitFor(async () => (await groupMembers(`${namespace}ledger`)) === 2, {
        what: 'two members in the group',
        timeoutMs: 120_000,
      });
      await untilEveryPartitionMoves(`${namespace}ledger`, Date.now());
      const victim = processes[round % 2];
      victim.signal('SIGKILL');
      const killedAt = Date.now();
      await victim.exited;
      const stall = await untilEveryPartitionMoves(`${namespace}ledger`, killedAt);
      stalls.push(stall);
      process.stdout.write(`  consumers round ${round + 1}: every partition moving again ${stall} ms after kill -9\n`);
      processes[round % 2] = startConsumers();
    }
  } finally {
    for (const child of processes) child.signal('SIGKILL');
    await Promise.all(processes.map((child) => child.exited));
    await stream.stop();
    await producer.disconnect();
  }
  return stalls;
}

async function groupMembers(groupId: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([groupId]);
    return groups[0]?.state === 'Stable' ? groups[0].members.length : 0;
  } finally {
    await admin.disconnect();
  }
}

function startRelay(): AppProcess {
  return AppProcess.start(
    'relay',
    cleanEnv({ DATABASE_URL: databaseUrl, KAFKA_BROKERS: BROKERS.join(','), METRICS_PORT: '0', LOG_LEVEL: 'info' }),
  );
}

/** The lanes a relay owns, from its "lanes rebalanced" lines (per drain loop: acquired minus released). */
function lanesOf(relay: AppProcess): number[] {
  const lanes = new Set<number>();
  for (const line of relay.logLines()) {
    if (line.msg !== 'lanes rebalanced') continue;
    for (const lane of (line.acquired as number[]) ?? []) lanes.add(lane);
    for (const lane of (line.released as number[]) ?? []) lanes.delete(lane);
  }
  return [...lanes];
}

/** Per lane the victim owned, the first publish of a row written after the kill; the slowest lane is the stall. */
async function relayStall(dataSource: DataSource, killedAt: Date, lanes: number[]): Promise<number> {
  const window = `created_at > $1 AND created_at < $1 + interval '3 seconds' AND lane = ANY($2::smallint[])`;
  await waitFor(
    async () => {
      const [{ waiting, written }] = await dataSource.query(
        `SELECT count(*) FILTER (WHERE published_at IS NULL)::int AS waiting, count(*)::int AS written
           FROM outbox WHERE ${window}`,
        [killedAt, lanes],
      );
      return written > 0 && waiting === 0 && Date.now() - killedAt.getTime() > 3_000;
    },
    { what: 'rows written after the kill published', timeoutMs: 120_000, intervalMs: 200 },
  );
  const [{ stall }] = await dataSource.query(
    `SELECT max(first_publish)::float AS stall FROM (
       SELECT lane, extract(epoch FROM min(published_at) - $1) * 1000 AS first_publish
         FROM outbox WHERE ${window} GROUP BY lane) lanes`,
    [killedAt, lanes],
  );
  return Math.round(stall);
}

async function relayRounds(): Promise<number[]> {
  const dataSource = await connect({ url: databaseUrl, applicationName: 'bench-failover', poolSize: 3 });
  let seq = 0;
  const stream = steadily(async (count) => {
    await dataSource.transaction(async (manager) => {
      for (let i = 0; i < count; i++) {
        const record = orderRecord(seq++);
        await addToOutbox(manager, relayTopic, {
          specversion: '1.0',
          id: randomUUID(),
          source: '/bench',
          type: 'bench.failover.v1',
          time: new Date().toISOString(),
          datacontenttype: 'application/json',
          subject: `lane-key-${seq}`,
          data: JSON.parse(record.value),
        });
      }
    });
    await notifyOutbox(dataSource);
  });
  const stalls: number[] = [];
  const relays = [startRelay(), startRelay()];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(relays.map((relay) => relay.waitForLog('relay started', 120_000)));
      await waitFor(() => relays.every((relay) => lanesOf(relay).length > 0), {
        what: 'both relays owning lanes',
        timeoutMs: 60_000,
      });
      const victim = relays[round % 2];
      const lanes = lanesOf(victim);
      victim.signal('SIGKILL');
      const [{ now }] = await dataSource.query(`SELECT clock_timestamp() AS now`);
      await victim.exited;
      const stall = await relayStall(dataSource, now, lanes);
      stalls.push(stall);
      process.stdout.write(
        `  relay round ${round + 1}: the victim's ${lanes.length} lanes publishing again ${stall} ms after kill -9\n`,
      );
      relays[round % 2] = startRelay();
    }
  } finally {
    for (const relay of relays) relay.signal('SIGKILL');
    await Promise.all(relays.map((relay) => relay.exited));
    await stream.stop();
    await dataSource.destroy();
  }
  return stalls;
}

const summary = (values: number[]) =>
  `median ${[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]} ms, max ${Math.max(...values)} ms`;

async function main(): Promise<void> {
  await createDatabaseIfAbsent(databaseUrl);
  await migrate(databaseUrl);
  await ensureTopics(kafka, [
    { topic, numPartitions: PARTITIONS },
    { topic: relayTopic, numPartitions: PARTITIONS },
  ]);
  try {
    const settings = Object.entries(EXTRA_CONSUMER_ENV)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    process.stdout.write(`consumers (ledger, ${PARTITIONS} partitions, ${RATE} events/s) ${settings || 'defaults'}\n`);
    const consumers = await consumersRounds();
    process.stdout.write(`relays (two, 64 lanes, ${RATE} rows/s)\n`);
    const relays = await relayRounds();
    process.stdout.write(`consumers kill -9 stall: ${summary(consumers)}\nrelay kill -9 stall: ${summary(relays)}\n`);
  } finally {
    await deleteTopicsStartingWith(kafka, namespace);
    const client = new Client({ connectionString: SERVER_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "hookrail_bench_failover_${run}" WITH (FORCE)`);
    await client.end();
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`bench:failover: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
