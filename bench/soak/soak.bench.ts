// npm run bench:soak — SOAK_EVENTS (1,000,000) signed webhooks at SOAK_RATE (400/s, what two cores sustain with the
// generator beside the three apps; 1,000/s needs the generator on another machine) through the compiled ingress,
// relay and consumers (ledger group only) with the retention jobs running on a short window (SOAK_RETENTION_SECONDS,
// 60: published outbox rows and dedupe rows older than that are deleted every SOAK_RETENTION_INTERVAL_MS, 10,000).
// Every few seconds it samples the apps' counters (accepted, published, applied), the insert → ledger latency, each
// app's RSS and the tables' statistics (live and dead rows, table and index sizes, autovacuum runs); it prints one row
// per tenth of the events and whether the path kept its rates and its tables bounded. The apps run with the Node
// flags of their start scripts. Needs Postgres and Kafka (KAFKA_BROKERS); the database is hookrail_bench_soak.
// On a server whose autovacuum is off nothing reclaims dead rows; SOAK_VACUUM_EVERY_S has the bench VACUUM the outbox
// and processed_events itself at that interval, standing in for it (default: 30 when autovacuum is off, else 0).
import 'reflect-metadata';
import { dltTopic, replayTopic, TOPICS } from '@app/contracts';
import { createKafka, kafkaFromEnv, ensureTopics } from '@app/kafka';
import { freePort } from '@app/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { appNodeOptions } from '../lib/app-node-options';
import { freshDatabase, root, spawnBuilt, stop, waitHttp, writeShopSources } from '../lib/ingress-fixtures';
import { peakRssMb } from '../lib/process-memory';
import { percentile } from '../lib/stats';
import { deleteTopicsStartingWith } from '../lib/kafka-topics';
import { memoryOf, recentLag, Sample, scrapeCounter, tableStats, timeReaching } from './soak-stats';

const EVENTS = Number(process.env.SOAK_EVENTS || 1_000_000);
const RATE = Number(process.env.SOAK_RATE || 400);
const RETENTION_SECONDS = Number(process.env.SOAK_RETENTION_SECONDS || 60);
const RETENTION_INTERVAL_MS = Number(process.env.SOAK_RETENTION_INTERVAL_MS || 10_000);
const SLICES = 10;
const SLICE = Math.ceil(EVENTS / SLICES);
const SAMPLE_MS = Math.min(5000, Math.max(500, ((SLICE / RATE) * 1000) / 10));
const MAX_IN_FLIGHT = 2000;
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One signed delivery of order event `index`, signed now (the signature's timestamp must be fresh). */
function deliver(port: number, webhook: Webhook, index: number): Promise<number> {
  const id = `soak_${index}`;
  const now = new Date();
  const body = JSON.stringify({
    type: 'shop.order.placed.v1',
    timestamp: now.toISOString(),
    data: {
      orderId: `ord_${index % 5000}`,
      customer: { id: `cus_${index % 997}`, email: 'ada@example.com' },
      amount: 4200,
      currency: 'EUR',
      lineItems: [{ sku: 'notebook', quantity: 2, unitAmount: 2100 }],
    },
  });
  const headers = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': webhook.sign(id, now, body),
  };
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/webhooks/shop', headers, agent },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function main(): Promise<void> {
  console.log(
    `bench:soak on ${os.cpus().length} cores: ${EVENTS} events at ${RATE}/s, retention ${RETENTION_SECONDS} s ` +
      `(every ${RETENTION_INTERVAL_MS} ms), a sample every ${SAMPLE_MS} ms\n`,
  );
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const url = await freshDatabase('hookrail_bench_soak');
  const namespace = `bench-soak-${randomBytes(3).toString('hex')}-`;
  const topic = `${namespace}${TOPICS.shopOrders}`;
  const kafka = createKafka('hookrail-bench-soak', { ...kafkaFromEnv(), KAFKA_BROKERS: brokers });
  await ensureTopics(
    kafka,
    [topic, `${namespace}${dltTopic('ledger')}`, `${namespace}${replayTopic('ledger')}`].map((name) => ({
      topic: name,
      numPartitions: 6,
    })),
  );
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const { dir, file: sourcesFile } = writeShopSources(secret, topic, 'hookrail-bench-soak-');
  const [port, relayMetrics, consumerMetrics] = [await freePort(), await freePort(), await freePort()];
  const common = { DATABASE_URL: url, KAFKA_BROKERS: brokers.join(','), LOG_LEVEL: 'warn' };
  const ingress = spawnBuilt(
    'dist/apps/ingress/src/main.js',
    { ...common, HOOKRAIL_SOURCES: sourcesFile, ADMIN_TOKEN: randomBytes(16).toString('hex'), PORT: String(port) },
    appNodeOptions('ingress'),
  );
  const relay = spawnBuilt(
    'dist/apps/relay/src/main.js',
    {
      ...common,
      METRICS_PORT: String(relayMetrics),
      OUTBOX_RETENTION_SECONDS: String(RETENTION_SECONDS),
      OUTBOX_RETENTION_INTERVAL_MS: String(RETENTION_INTERVAL_MS),
    },
    appNodeOptions('relay'),
  );
  const consumers = spawnBuilt(
    'dist/apps/consumers/src/main.js',
    {
      ...common,
      CONSUMER_GROUPS: 'ledger',
      KAFKA_NAMESPACE: namespace,
      DEAD_LETTER_STORE: 'false',
      METRICS_PORT: String(consumerMetrics),
      PROCESSED_EVENTS_RETENTION_DAYS: String(RETENTION_SECONDS / 86_400),
      PROCESSED_EVENTS_RETENTION_INTERVAL_MS: String(RETENTION_INTERVAL_MS),
    },
    appNodeOptions('consumers'),
  );
  const pids = { ingress: ingress.pid!, relay: relay.pid!, consumers: consumers.pid! };
  const db = new Client({ connectionString: url });
  const samples: Sample[] = [];
  try {
    await Promise.all([
      waitHttp(port, '/healthz', 60_000),
      waitHttp(relayMetrics, '/metrics', 60_000),
      waitHttp(consumerMetrics, '/metrics', 60_000),
    ]);
    await db.connect();
    const autovacuum = (await db.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0].autovacuum;
    const vacuumEverySeconds = Number(process.env.SOAK_VACUUM_EVERY_S || (autovacuum === 'on' ? 0 : 30));
    console.log(
      `autovacuum is ${autovacuum} on this server` +
        (autovacuum === 'on' ? '' : ': dead rows are only reclaimed by SOAK_VACUUM_EVERY_S') +
        (vacuumEverySeconds > 0
          ? `; the bench vacuums the outbox and processed_events every ${vacuumEverySeconds} s`
          : ''),
    );
    const vacuumDb = new Client({ connectionString: url });
    if (vacuumEverySeconds > 0) await vacuumDb.connect();
    const vacuumer =
      vacuumEverySeconds > 0
        ? setInterval(
            () => void vacuumDb.query('VACUUM outbox, processed_events').catch(() => undefined),
            vacuumEverySeconds * 1000,
          )
        : undefined;
    const counts = { offered: 0, accepted: 0, other: new Map<number, number>() };
    const latencies: number[][] = Array.from({ length: SLICES }, () => []);
    const sample = async () => {
      const at = Date.now();
      const since = new Date(samples.length ? samples[samples.length - 1].at : at - SAMPLE_MS);
      samples.push({
        at,
        offered: counts.offered,
        accepted: counts.accepted,
        published: await scrapeCounter(relayMetrics, 'hookrail_relay_published_total'),
        applied: await scrapeCounter(consumerMetrics, 'hookrail_consumer_processed_total'),
        lag: await recentLag(db, since),
        rssMb: memoryOf(pids),
        tables: await tableStats(db),
      });
    };
    await sample();
    let sampling = Promise.resolve();
    const sampler = setInterval(() => (sampling = sampling.then(sample).catch(() => undefined)), SAMPLE_MS);

    const webhook = new Webhook(secret);
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    for (let index = 0; index < EVENTS; index += 1) {
      const dueAt = started + (index / RATE) * 1000;
      const wait = dueAt - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      counts.offered += 1;
      const slice = Math.floor(index / SLICE);
      const sent = deliver(port, webhook, index).then(
        (status) => {
          latencies[slice].push(performance.now() - dueAt);
          if (status === 202) counts.accepted += 1;
          else counts.other.set(status, (counts.other.get(status) ?? 0) + 1);
          inFlight.delete(sent);
        },
        () => {
          counts.other.set(0, (counts.other.get(0) ?? 0) + 1);
          inFlight.delete(sent);
        },
      );
      inFlight.add(sent);
    }
    await Promise.all(inFlight);
    const deadline = Date.now() + 600_000;
    while (samples[samples.length - 1].applied < counts.accepted && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    clearInterval(sampler);
    clearInterval(vacuumer);
    if (vacuumEverySeconds > 0) await vacuumDb.end();
    await sampling;
    await sample();
    report(samples, latencies, counts, pids);
  } finally {
    await db.end().catch(() => undefined);
    await Promise.all([stop(ingress), stop(relay), stop(consumers)]);
    rmSync(dir, { recursive: true, force: true });
    await deleteTopicsStartingWith(kafka, namespace);
  }
}

function report(
  samples: Sample[],
  latencies: number[][],
  counts: { offered: number; accepted: number; other: Map<number, number> },
  pids: Record<string, number>,
): void {
  const rate = (pick: (sample: Sample) => number, slice: number) => {
    const seconds =
      (timeReaching(samples, pick, (slice + 1) * SLICE) - timeReaching(samples, pick, slice * SLICE)) / 1000;
    return SLICE / seconds;
  };
  const table = (at: Sample, name: string) => at.tables.find((stats) => stats.table === name)!;
  const rows = Array.from({ length: SLICES }, (_, slice) => {
    const end = timeReaching(samples, (s) => s.applied, (slice + 1) * SLICE);
    const start = timeReaching(samples, (s) => s.applied, slice * SLICE);
    const within = samples.filter((s) => s.at >= start && s.at <= end);
    const last = samples.find((s) => s.at >= end) ?? samples[samples.length - 1];
    const lagP50 = percentile(within.map((s) => s.lag.p50).filter(Number.isFinite), 50);
    const p99s = within.map((s) => s.lag.p99).filter(Number.isFinite);
    const lagP99 = p99s.length ? Math.max(...p99s) : NaN;
    const [outbox, processed, events] = ['outbox', 'processed_events', 'inbound_events'].map((name) =>
      table(last, name),
    );
    const rss = (app: string) => Math.max(...within.map((s) => s.rssMb[app]), last.rssMb[app]).toFixed(0);
    return {
      drained: rate((s) => s.published, slice),
      applied: rate((s) => s.applied, slice),
      line:
        `| ${slice + 1} | ${rate((s) => s.accepted, slice).toFixed(0)} | ${rate((s) => s.published, slice).toFixed(0)} | ` +
        `${rate((s) => s.applied, slice).toFixed(0)} | ${percentile(latencies[slice], 99).toFixed(1)} ms | ` +
        `${lagP50.toFixed(0)} / ${Number.isNaN(lagP99) ? '–' : lagP99.toFixed(0)} ms | ` +
        `${outbox.liveRows} / ${outbox.deadRows} (${outbox.autovacuums}) | ${processed.liveRows} / ${processed.deadRows} (${processed.autovacuums}) | ` +
        `${events.liveRows} / ${events.deadRows} (${events.autovacuums}) | ` +
        `${(outbox.tableMb + outbox.indexMb).toFixed(0)} / ${(processed.tableMb + processed.indexMb).toFixed(0)} / ${(events.tableMb + events.indexMb).toFixed(0)} MB | ` +
        `${rss('ingress')} / ${rss('relay')} / ${rss('consumers')} MB |`,
    };
  });
  const final = samples[samples.length - 1];
  const indexes = (name: string) =>
    Object.entries(table(final, name).indexes)
      .map(([index, mb]) => `${index} ${mb.toFixed(1)} MB`)
      .join(', ');
  const maxLive = (name: string, from: number, to: number) =>
    Math.max(...samples.slice(from, to).map((s) => table(s, name).liveRows));
  const half = Math.floor(samples.length / 2);
  const [first, last] = [rows[0], rows[SLICES - 1]];
  const within = (a: number, b: number) => Math.abs(a - b) / b <= 0.1;
  console.log(
    [
      `| tenth | accepted/s | drained/s | applied/s | HTTP p99 | insert → ledger p50 / p99 | outbox live / dead (autovacuums) | processed_events live / dead (autovacuums) | inbound_events live / dead (autovacuums) | outbox / processed_events / inbound_events size | RSS ingress / relay / consumers |`,
      `|---|---|---|---|---|---|---|---|---|---|---|`,
      ...rows.map((row) => row.line),
      ``,
      `offered ${counts.offered}, accepted ${counts.accepted}${[...counts.other].map(([status, n]) => `, ${status === 0 ? 'failed' : status}×${n}`).join('')}; ` +
        `applied ${final.applied}, published ${final.published}`,
      `indexes at the end: outbox: ${indexes('outbox')}; processed_events: ${indexes('processed_events')}`,
      `peak RSS (VmHWM) ingress / relay / consumers: ${['ingress', 'relay', 'consumers'].map((app) => peakRssMb(pids[app]).toFixed(0)).join(' / ')} MB`,
      ``,
      `goals: drain rate, last tenth ${last.drained.toFixed(0)}/s against the first ${first.drained.toFixed(0)}/s: ${within(last.drained, first.drained) ? 'within' : 'not within'} 10 %; ` +
        `apply rate ${last.applied.toFixed(0)}/s against ${first.applied.toFixed(0)}/s: ${within(last.applied, first.applied) ? 'within' : 'not within'} 10 %`,
      `  bounded: most live outbox rows in the first half ${maxLive('outbox', 0, half)}, in the second ${maxLive('outbox', half, samples.length)}; ` +
        `processed_events ${maxLive('processed_events', 0, half)}, then ${maxLive('processed_events', half, samples.length)}`,
    ].join('\n'),
  );
}

main().catch((error: Error) => {
  console.error(`bench:soak failed: ${error.stack}`);
  process.exit(1);
});
