// npm run bench:e2e — the whole path at a fixed rate: signed webhook → ingress 202 → outbox → relay → Kafka →
// ledger commit. Compiled ingress, relay and consumers (ledger group only) on one fresh database and topics of their
// own; latency from the ingress's insert (inbound_events.received_at) to the ledger's dedupe row
// (processed_events.processed_at), both Postgres timestamps, so one clock measures both ends.
import 'reflect-metadata';
import { dltTopic, replayTopic, TOPICS } from '@app/contracts';
import { createKafka, kafkaFromEnv, ensureTopics } from '@app/kafka';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { AppName, appNodeOptions } from '../lib/app-node-options';
import { fixedRate } from '../lib/http-load';
import { freshDatabase, root, signedRequests, spawnBuilt, stop, waitHttp } from '../lib/ingress-fixtures';
import { peakRssMb } from '../lib/process-memory';
import { ms, summary } from '../lib/stats';
import { deleteTopicsStartingWith } from '../lib/kafka-topics';

const RATE = Number(process.env.BENCH_RATE || 500);
const SECONDS = Number(process.env.BENCH_SECONDS || 20);
// Warm-up through the whole path at half the rate, so that the measured part runs on JIT-compiled code.
const WARMUP = Number(process.env.BENCH_WARMUP || 2_000);
// Node flags for the three apps instead of those of their start scripts (other heap limits, or --cpu-prof with
// --cpu-prof-dir for profiles); set but empty: none.
const nodeOptions = (app: AppName) => appNodeOptions(app, process.env.BENCH_E2E_NODE_OPTIONS);
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');

async function main(): Promise<void> {
  console.log(
    `bench:e2e on ${os.cpus().length} cores: ${RATE} webhooks/s for ${SECONDS} s through ingress, relay and the ledger\n`,
  );
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const url = await freshDatabase('hookrail_bench_e2e');
  const namespace = `bench-e2e-${randomBytes(3).toString('hex')}-`;
  const topic = `${namespace}${TOPICS.shopOrders}`;
  const kafka = createKafka('hookrail-bench-e2e', { ...kafkaFromEnv(), KAFKA_BROKERS: brokers });
  await ensureTopics(
    kafka,
    [topic, `${namespace}${dltTopic('ledger')}`, `${namespace}${replayTopic('ledger')}`].map((name) => ({
      topic: name,
      numPartitions: 6,
    })),
  );

  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const sourcesFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'hookrail-bench-e2e-')), 'sources.json');
  writeFileSync(
    sourcesFile,
    JSON.stringify([
      { name: 'shop', scheme: 'standard-webhooks', secrets: [secret], topic, aggregateIdPath: 'data.orderId' },
    ]),
  );
  const port = 3600 + Math.floor(Math.random() * 300);
  const common = { DATABASE_URL: url, KAFKA_BROKERS: brokers.join(','), LOG_LEVEL: 'warn', METRICS_PORT: '0' };
  const ingress = spawnBuilt(
    'dist/apps/ingress/src/main.js',
    { ...common, HOOKRAIL_SOURCES: sourcesFile, ADMIN_TOKEN: randomBytes(16).toString('hex'), PORT: String(port) },
    nodeOptions('ingress'),
  );
  const relay = spawnBuilt('dist/apps/relay/src/main.js', common, nodeOptions('relay'));
  const consumers = spawnBuilt(
    'dist/apps/consumers/src/main.js',
    { ...common, CONSUMER_GROUPS: 'ledger', KAFKA_NAMESPACE: namespace, DEAD_LETTER_STORE: 'false' },
    nodeOptions('consumers'),
  );
  const db = new Client({ connectionString: url });
  try {
    await waitHttp(port, '/healthz', 60_000);
    await db.connect();
    const requests = signedRequests(secret, WARMUP + RATE * SECONDS);
    await fixedRate(port, requests.slice(0, WARMUP), Math.max(1, RATE / 2));
    const load = await fixedRate(port, requests.slice(WARMUP), RATE);
    const total = requests.length;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const done = Number(
        (await db.query(`SELECT count(*) AS n FROM processed_events WHERE "group" = 'ledger'`)).rows[0].n,
      );
      if (done >= total) break;
      if (Date.now() > deadline) throw new Error(`the ledger applied ${done} of ${total} events within 180 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const { rows } = await db.query<{ ms: number }>(
      `SELECT EXTRACT(EPOCH FROM (p.processed_at - e.received_at)) * 1000 AS ms
         FROM inbound_events e JOIN processed_events p ON p.event_id = e.id::text AND p."group" = 'ledger'
        ORDER BY e.received_at OFFSET $1`,
      [WARMUP],
    );
    const e2e = summary(rows.map((row) => Number(row.ms)));
    const http = summary(load.latenciesMs);
    const entries = Number((await db.query('SELECT count(*) AS n FROM ledger_entries')).rows[0].n);
    console.log(
      [
        '| measurement | figure |',
        '|---|---|',
        `| offered | ${RATE} webhooks/s for ${SECONDS} s (${load.latenciesMs.length} deliveries; ${[...load.statuses.entries()].map(([s, n]) => `${s}×${n}`).join(' ')}) |`,
        `| ingress answer (202) | p50 ${ms(http.p50)}, p99 ${ms(http.p99)} |`,
        `| ingress insert → ledger dedupe row | p50 ${ms(e2e.p50)}, p99 ${ms(e2e.p99)}, max ${ms(e2e.max)} |`,
        `| ledger entries | ${entries} for ${total} events (one each) |`,
        `| peak RSS ingress / relay / consumers | ${peakRssMb(ingress.pid as number).toFixed(0)} / ${peakRssMb(relay.pid as number).toFixed(0)} / ${peakRssMb(consumers.pid as number).toFixed(0)} MB |`,
        '',
        `goals: p50 ≤ 20 ms ${e2e.p50 <= 20 ? 'met' : 'missed'}, p99 ≤ 100 ms ${e2e.p99 <= 100 ? 'met' : 'missed'}`,
      ].join('\n'),
    );
  } finally {
    await db.end().catch(() => undefined);
    await Promise.all([stop(ingress), stop(relay), stop(consumers)]);
    await deleteTopicsStartingWith(kafka, namespace);
  }
}

main().catch((error: Error) => {
  console.error(`bench:e2e failed: ${error.stack}`);
  process.exit(1);
});
