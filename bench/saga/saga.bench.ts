// npm run bench:saga — the order fulfilment saga end to end: signed webhook → ingress → outbox → relay → Kafka →
// coordinator → inventory, payments (development payment provider over HTTP), shipping (development carrier) →
// replies → `completed`, three steps and seven messages per order, each through the outbox. Compiled ingress, relay
// and consumers (the saga's four groups and the ledger) on one fresh database and topics of their own; the providers
// run in this process. Latency from the ingress's insert (inbound_events.received_at) to the saga's end
// (sagas.ended_at), and in the same run the one-hop baseline: the same events to the ledger's dedupe row
// (processed_events.processed_at). All Postgres timestamps, so one clock measures both ends.
// Then the hop cost: CPU per message of each process (the apps, Postgres, the broker) and Postgres transactions per
// message, per phase and for the same hops in bulk (bulk-hops.ts), with their ratio.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DevPaymentProvider } from '../../apps/consumers/src/payments/dev-provider/payment-provider.server';
import { StockRepository } from '../../apps/consumers/src/inventory/stock.repository';
import { DevShippingProvider } from '../../apps/consumers/src/shipping/dev-provider/shipping-provider.server';
import { connect } from '@app/db';
import { createKafka, kafkaFromEnv } from '@app/kafka';
import { fixedRate, LoadResult, saturate } from '../lib/http-load';
import { freshDatabase, root, signedRequests, spawnBuilt, stop, waitHttp } from '../lib/ingress-fixtures';
import { peakRssMb } from '../lib/process-memory';
import { ms, summary } from '../lib/stats';
import { deleteTopicsStartingWith } from '../lib/kafka-topics';
import { bulkHops, hopCostTable } from './bulk-hops';
import { perMessage, sampleHops } from './hop-cost';

const RATE = Number(process.env.BENCH_RATE || 100);
const SECONDS = Number(process.env.BENCH_SECONDS || 20);
const WARMUP = Number(process.env.BENCH_WARMUP || 500);
/** Orders sent as fast as the ingress takes them, for the throughput figure. */
const FLAT_OUT = Number(process.env.BENCH_FLAT_OUT || 5_000);
// Node flags for the three apps (heap limits, or --cpu-prof with --cpu-prof-dir for profiles).
const NODE_OPTIONS = (process.env.BENCH_SAGA_NODE_OPTIONS ?? '').split(' ').filter(Boolean);
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');

/** One load phase: the orders numbered [from, to) and what the HTTP side saw. */
interface Phase {
  name: string;
  from: number;
  to: number;
  load: LoadResult;
  cost: ReturnType<typeof perMessage>;
}

async function main(): Promise<void> {
  console.log(
    `bench:saga on ${os.cpus().length} cores: ${WARMUP} warm-up orders, ${RATE} orders/s for ${SECONDS} s, ` +
      `then ${FLAT_OUT} flat out\n`,
  );
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const url = await freshDatabase('hookrail_bench_saga');
  const namespace = `bench-saga-${randomBytes(3).toString('hex')}-`;
  const [payments, shipping] = await Promise.all([DevPaymentProvider.start(), DevShippingProvider.start()]);

  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const sourcesFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'hookrail-bench-saga-')), 'sources.json');
  writeFileSync(
    sourcesFile,
    JSON.stringify([
      {
        name: 'shop',
        scheme: 'standard-webhooks',
        secrets: [secret],
        topic: `${namespace}shop.orders`,
        aggregateIdPath: 'data.orderId',
      },
    ]),
  );
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const common = {
    DATABASE_URL: url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_CREATE_TOPICS: 'true',
    LOG_LEVEL: 'warn',
    METRICS_PORT: '0',
  };
  const consumers = spawnBuilt(
    'dist/apps/consumers/src/main.js',
    {
      ...common,
      CONSUMER_GROUPS: 'ledger,fulfilment,inventory,payments,shipping',
      KAFKA_NAMESPACE: namespace,
      DEAD_LETTER_STORE: 'false',
      PAYMENT_PROVIDER_URL: payments.url,
      SHIPPING_PROVIDER_URL: shipping.url,
    },
    NODE_OPTIONS,
  );
  const ingress = spawnBuilt(
    'dist/apps/ingress/src/main.js',
    {
      ...common,
      HOOKRAIL_SOURCES: sourcesFile,
      ADMIN_TOKEN: randomBytes(16).toString('hex'),
      PORT: String(port),
    },
    NODE_OPTIONS,
  );
  const relay = spawnBuilt('dist/apps/relay/src/main.js', common, NODE_OPTIONS);
  const db = new Client({ connectionString: url });
  try {
    await waitHttp(port, '/healthz', 60_000);
    await db.connect();
    // Stock for every order (signedRequests orders notebooks), so that no saga is compensated.
    const seed = await connect({ url, applicationName: 'bench-saga', poolSize: 1 });
    await StockRepository.addMissingSkus(seed.manager, ['notebook'], 1_000_000_000).finally(() => seed.destroy());
    // Every order its own id (one saga per order), in one list so that the phases never share one.
    const total = WARMUP + RATE * SECONDS + FLAT_OUT;
    const requests = signedRequests(secret, total, total);
    const phases: Phase[] = [];
    const apps = { ingress: ingress.pid!, relay: relay.pid!, consumers: consumers.pid! };
    const run = async (name: string, from: number, to: number, send: () => Promise<LoadResult>) => {
      const before = await sampleHops(db, apps);
      const load = await send();
      await waitForSagas(db);
      phases.push({ name, from, to, load, cost: perMessage(before, await sampleHops(db, apps)) });
    };
    await run('warm-up', 0, WARMUP, () => fixedRate(port, requests.slice(0, WARMUP), Math.max(1, RATE / 2)));
    const fixedEnd = WARMUP + RATE * SECONDS;
    await run(`${RATE} orders/s`, WARMUP, fixedEnd, () => fixedRate(port, requests.slice(WARMUP, fixedEnd), RATE));
    await run('flat out', fixedEnd, total, () => saturate(port, requests.slice(fixedEnd), 32));

    const lines = ['| measurement | figure |', '|---|---|'];
    const measured: Record<string, Awaited<ReturnType<typeof phaseFigures>>> = {};
    for (const phase of phases.slice(1)) {
      const figures = await phaseFigures(db, phase.from, phase.to);
      measured[phase.name] = figures;
      const statuses = [...phase.load.statuses.entries()].map(([status, n]) => `${status}×${n}`).join(' ');
      lines.push(
        `| ${phase.name}: orders | ${phase.to - phase.from} sent (${statuses}), every accepted one's saga completed |`,
        `| ${phase.name}: sagas completed per second | ${figures.sagasPerSecond.toFixed(0)} |`,
        `| ${phase.name}: order placed → saga completed | p50 ${ms(figures.saga.p50)}, p99 ${ms(figures.saga.p99)}, max ${ms(figures.saga.max)} |`,
        `| ${phase.name}: baseline, order placed → ledger (one hop) | p50 ${ms(figures.ledger.p50)}, p99 ${ms(figures.ledger.p99)} |`,
      );
    }
    // The same hops in bulk, same processes: a backlog the relay drains, and events only the ledger (a batch group)
    // applies.
    const bulk = await bulkHops(db, url, namespace, brokers, apps);
    lines.push('', ...hopCostTable(phases.slice(1), bulk), '');
    const stats = payments.stats();
    const accepted = (await db.query(`SELECT count(*)::int AS count FROM inbound_events`)).rows[0].count;
    lines.push(
      `| provider calls | ${stats.charges} charges, ${shipping.stats().shipments} shipments for ${accepted} accepted orders |`,
      `| peak RSS ingress / relay / consumers | ${peakRssMb(ingress.pid as number).toFixed(0)} / ${peakRssMb(relay.pid as number).toFixed(0)} / ${peakRssMb(consumers.pid as number).toFixed(0)} MB |`,
    );
    const fixed = measured[`${RATE} orders/s`];
    const flat = measured['flat out'];
    lines.push(
      '',
      `goals: p99 ≤ 250 ms at ${RATE} orders/s ${fixed.saga.p99 <= 250 ? 'met' : 'missed'}, ` +
        `≥ 500 sagas/s flat out ${flat.sagasPerSecond >= 500 ? 'met' : 'missed'}`,
    );
    console.log(lines.join('\n'));
  } finally {
    await db.end().catch(() => undefined);
    await Promise.all([stop(ingress), stop(relay), stop(consumers)]);
    await Promise.all([payments.close(), shipping.close()]);
    await deleteTopicsStartingWith(
      createKafka('hookrail-bench-saga', { ...kafkaFromEnv(), KAFKA_BROKERS: brokers }),
      namespace,
    );
  }
}

/** Waits until every order the ingress accepted so far has its saga completed. */
async function waitForSagas(db: Client): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const { rows } = await db.query(`SELECT state, count(*)::int AS n FROM sagas GROUP BY state`);
    const byState = Object.fromEntries(rows.map((row) => [row.state, row.n]));
    const [{ count }] = (await db.query(`SELECT count(*)::int AS count FROM inbound_events`)).rows;
    if ((byState.completed ?? 0) >= count) return;
    if ((byState.compensated ?? 0) + (byState.failed ?? 0) > 0)
      throw new Error(`sagas that did not complete: ${JSON.stringify(byState)}`);
    if (Date.now() > deadline) throw new Error(`only ${JSON.stringify(byState)} of ${count} sagas within 300 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The orders numbered [from, to): latencies to the saga's end and to the ledger, and sagas completed per second. */
async function phaseFigures(db: Client, from: number, to: number) {
  const { rows } = await db.query<{ saga: number; ledger: number; received: Date; ended: Date }>(
    `SELECT EXTRACT(EPOCH FROM (s.ended_at - e.received_at)) * 1000 AS saga,
            EXTRACT(EPOCH FROM (p.processed_at - e.received_at)) * 1000 AS ledger,
            e.received_at AS received, s.ended_at AS ended
       FROM inbound_events e
       JOIN sagas s ON s.start_event_id = e.id::text
       JOIN processed_events p ON p.event_id = e.id::text AND p."group" = 'ledger'
      WHERE e.aggregate_id = ANY($1)`,
    [Array.from({ length: to - from }, (_, i) => `ord_${from + i}`)],
  );
  const first = Math.min(...rows.map((row) => row.received.getTime()));
  const last = Math.max(...rows.map((row) => row.ended.getTime()));
  return {
    saga: summary(rows.map((row) => Number(row.saga))),
    ledger: summary(rows.map((row) => Number(row.ledger))),
    sagasPerSecond: rows.length / Math.max((last - first) / 1000, 0.001),
  };
}

main().catch((error: Error) => {
  console.error(`bench:saga failed: ${error.stack}`);
  process.exit(1);
});
