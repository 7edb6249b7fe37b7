// npm run bench:webhooks — outbound webhooks on the compiled apps, one fresh database, topics of their own, and a
// receiver in a process of its own that answers 200 at once (paths /slow* after 5 s).
//  1. Throughput: events produced straight to Kafka fan out to ENDPOINTS endpoints on that receiver; deliveries per
//     second at the receiver. Baseline in the same run: a bare keep-alive HTTP client posting the same bodies to the
//     same receiver with as many requests in flight as the workers.
//  2. Latency at RATE events/s through the ingress: event accepted (inbound_events.received_at) → delivered (the
//     receiver's clock; the same machine).
//  3. The same with one more endpoint that answers in 5 s: the fast endpoint's p99 must move by less than 10 %.
//  4. The same beside eight endpoints answering in 5 s (that one deleted), each at the default in-flight cap of 8
//     (`maxInFlight`), which with 64 workers (BENCH_WORKERS=64) could hold the whole pool: every event goes to all nine, so
//     the slow ones stay busy the whole run; the fast endpoint's p99 must stay within 2× of its figure in 2.
//  5. With BENCH_CUSTOMERS=10000 (the slow ones deleted): events of one customer with two endpoints at RATE, first as
//     the only customer, then among that many customers with two endpoints each: its endpoint's p99 and the
//     consumers' CPU per event, the second beside the first.
import 'reflect-metadata';
import { CloudEvent, dltTopic, replayTopic, TOPICS, toKafkaRecord } from '@app/contracts';
import { createKafka, kafkaFromEnv, ensureTopics } from '@app/kafka';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { fixedRate } from '../lib/http-load';
import { freshDatabase, root, signedRequests, spawnBuilt, stop, waitHttp } from '../lib/ingress-fixtures';
import { cpuTimeMs } from '../lib/process-memory';
import { ms, summary } from '../lib/stats';
import { deleteTopicsStartingWith } from '../lib/kafka-topics';
import { MEASURED_CUSTOMER, removeOtherCustomers, seedMeasuredCustomer, seedOtherCustomers } from './customers-phase';

const EVENTS = Number(process.env.BENCH_EVENTS || 5_000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS || 4);
/** OUTBOUND_WEBHOOKS_WORKERS's default. */
const WORKERS = Number(process.env.BENCH_WORKERS || 256);
const RATE = Number(process.env.BENCH_RATE || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const SLOW_ENDPOINTS = 8;
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS || 0);
/** OUTBOUND_WEBHOOKS_ENDPOINT_CONCURRENCY's default. */
const DEFAULT_CAP = 8;
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');
const adminToken = randomBytes(16).toString('hex');
// Node flags for the three apps (e.g. --cpu-prof --cpu-prof-dir=… for profiles).
const NODE_OPTIONS = (process.env.BENCH_WEBHOOKS_NODE_OPTIONS ?? '').split(' ').filter(Boolean);

type Receipt = [string, number];

async function main(): Promise<void> {
  console.log(
    `bench:webhooks on ${os.cpus().length} cores: ${EVENTS} events × ${ENDPOINTS} endpoints, then ${RATE} events/s for ${SECONDS} s\n`,
  );
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const url = await freshDatabase('hookrail_bench_webhooks');
  const namespace = `bench-webhooks-${randomBytes(3).toString('hex')}-`;
  const topic = `${namespace}${TOPICS.shopOrders}`;
  const kafka = createKafka('hookrail-bench-webhooks', { ...kafkaFromEnv(), KAFKA_BROKERS: brokers });
  await ensureTopics(
    kafka,
    [
      topic,
      `${namespace}${TOPICS.inbound}`,
      `${namespace}${dltTopic('webhooks')}`,
      `${namespace}${replayTopic('webhooks')}`,
    ].map((name) => ({ topic: name, numPartitions: 6 })),
  );
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const sourcesFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'hookrail-bench-webhooks-')), 'sources.json');
  writeFileSync(
    sourcesFile,
    JSON.stringify([
      {
        name: 'shop',
        scheme: 'standard-webhooks',
        secrets: [secret],
        topic,
        aggregateIdPath: 'data.orderId',
        customerIdPath: 'tenant',
      },
    ]),
  );
  const port = 20_000 + Math.floor(Math.random() * 10_000);
  const receiverPort = port + 1;
  const adminPort = port + 2;
  const ssrf = { OUTBOUND_WEBHOOKS_ALLOW_HOSTS: '127.0.0.1', OUTBOUND_WEBHOOKS_ALLOW_HTTP: 'true' };
  const common = { DATABASE_URL: url, KAFKA_BROKERS: brokers.join(','), LOG_LEVEL: 'warn', METRICS_PORT: '0', ...ssrf };
  const receiver = spawn(
    process.execPath,
    ['-r', '@swc-node/register', 'bench/webhooks/receiver.ts', String(receiverPort)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ingress = spawnBuilt(
    'dist/apps/ingress/src/main.js',
    { ...common, HOOKRAIL_SOURCES: sourcesFile, PORT: String(port) },
    NODE_OPTIONS,
  );
  // The operator plane, where the endpoints are made and deleted.
  const admin = spawnBuilt(
    'dist/apps/admin/src/main.js',
    {
      ...common,
      ADMIN_TOKEN: adminToken,
      ADMIN_PORT: String(adminPort),
      PORTAL_PORT: '0',
      OPS_SAMPLE_INTERVAL_MS: '0',
    },
    NODE_OPTIONS,
  );
  const relay = spawnBuilt('dist/apps/relay/src/main.js', common, NODE_OPTIONS);
  const consumers = spawnBuilt(
    'dist/apps/consumers/src/main.js',
    {
      ...common,
      CONSUMER_GROUPS: 'webhooks',
      KAFKA_NAMESPACE: namespace,
      DEAD_LETTER_STORE: 'false',
      OUTBOUND_WEBHOOKS_TOPICS: TOPICS.shopOrders,
      OUTBOUND_WEBHOOKS_WORKERS: String(WORKERS),
      OUTBOUND_WEBHOOKS_ENDPOINT_CONCURRENCY: String(Math.ceil(WORKERS / ENDPOINTS)),
    },
    NODE_OPTIONS,
  );
  const db = new Client({ connectionString: url });
  try {
    await waitHttp(port, '/healthz', 60_000);
    await waitHttp(adminPort, '/healthz', 60_000);
    await waitHttp(receiverPort, '/receipts', 30_000);
    await db.connect();
    const receiverUrl = `http://127.0.0.1:${receiverPort}`;
    const receipts = async (prefix: string): Promise<Receipt[]> =>
      (await fetch(`${receiverUrl}/receipts?prefix=${encodeURIComponent(prefix)}`)).json() as Promise<Receipt[]>;

    // 1. Throughput, and the bare client on the same bodies.
    const bulk = await Promise.all(
      Array.from({ length: ENDPOINTS }, (_, i) =>
        createEndpoint(adminPort, `${receiverUrl}/bulk/${i}`, ['shop.order.placed.v1']),
      ),
    );
    await waitForConsumers(db);
    const events = Array.from({ length: EVENTS }, (_, i) => orderEvent(`ord_${i % 1000}`));
    await produceAll(kafka, topic, events);
    const expected = EVENTS * ENDPOINTS;
    const bulkReceipts = await waitForReceipts(() => receipts('/bulk/'), expected, 300_000);
    const times = bulkReceipts.map(([, at]) => at).sort((a, b) => a - b);
    const hookrailRate = (expected - 1) / ((times[times.length - 1] - times[0]) / 1000);
    const bodies = events.map((event) => JSON.stringify(event.data));
    const bare = await bareClient(receiverPort, bodies, ENDPOINTS, WORKERS);
    // Deleted, not disabled: a disabled endpoint would keep queueing the next phases' events.
    for (const endpoint of bulk) await adminCall(adminPort, 'DELETE', `/admin/webhook-endpoints/${endpoint}`, {});

    // 2. Latency at a fixed rate through the ingress.
    const fastId = await createEndpoint(adminPort, `${receiverUrl}/fast`, ['shop.order.*']);
    const quietCpu = cpuTimeMs(consumers.pid!);
    const quiet = await latencyRun(db, port, secret, () => receipts('/fast'));
    const quietCpuPerEvent = (cpuTimeMs(consumers.pid!) - quietCpu) / (RATE * SECONDS);
    const quietSplit = await whereTheTimeWent(db, fastId, quiet.since);
    // 3. The same with an endpoint answering in 5 s beside it.
    const slow = await createEndpoint(adminPort, `${receiverUrl}/slow`, ['shop.order.*']);
    const beside = await latencyRun(db, port, secret, () => receipts('/fast'));
    const besideSplit = await whereTheTimeWent(db, fastId, beside.since);
    const change = (beside.p99 - quiet.p99) / quiet.p99;
    // 4. The same beside eight endpoints answering in 5 s, each at the default cap.
    await adminCall(adminPort, 'DELETE', `/admin/webhook-endpoints/${slow}`, {});
    const slowIds: string[] = [];
    for (let i = 0; i < SLOW_ENDPOINTS; i++)
      slowIds.push(
        await createEndpoint(adminPort, `${receiverUrl}/slow/${i}`, ['shop.order.*'], { maxInFlight: DEFAULT_CAP }),
      );
    const crowded = await latencyRun(db, port, secret, () => receipts('/fast'));
    const crowdedSplit = await whereTheTimeWent(db, fastId, crowded.since);
    const crowdedRatio = crowded.p99 / quiet.p99;
    // 5. Many customers, events of one.
    const customerRows: string[] = [];
    if (CUSTOMERS > 0) {
      for (const id of slowIds) await adminCall(adminPort, 'DELETE', `/admin/webhook-endpoints/${id}`, {});
      const own = [
        await createEndpoint(adminPort, `${receiverUrl}/customer/0`, ['shop.order.*']),
        await createEndpoint(adminPort, `${receiverUrl}/customer/1`, ['shop.order.*']),
      ];
      // The same customer's events, first as the only customer, then among CUSTOMERS: the same deliveries per event.
      const customerRun = async () => {
        const before = cpuTimeMs(consumers.pid!);
        const run = await latencyRun(db, port, secret, () => receipts('/customer/0'), { tenant: MEASURED_CUSTOMER });
        const cpuPerEvent = (cpuTimeMs(consumers.pid!) - before) / (RATE * SECONDS);
        return { ...run, cpuPerEvent, split: await whereTheTimeWent(db, own[0], run.since) };
      };
      // Alone, among many, alone again: the baseline is the mean of the two runs around the measured one.
      await seedMeasuredCustomer(db, own);
      await waitForIdleQueue(db); // the slow endpoints' last attempts, which would weigh on the first run only
      const before = await customerRun();
      await seedOtherCustomers(db, CUSTOMERS);
      const many = await customerRun();
      await removeOtherCustomers(db);
      const after = await customerRun();
      const one = {
        p50: (before.p50 + after.p50) / 2,
        p99: (before.p99 + after.p99) / 2,
        max: Math.max(before.max, after.max),
        cpuPerEvent: (before.cpuPerEvent + after.cpuPerEvent) / 2,
        split: `${before.split}; after: ${after.split}`,
      };
      const p99Ratio = many.p99 / one.p99;
      const cpuRatio = many.cpuPerEvent / one.cpuPerEvent;
      customerRows.push(
        `| accepted → delivered at ${RATE} events/s, one customer's endpoint (2 + 1 operator's), the only customer, before and after (mean) | p50 ${ms(before.p50)} and ${ms(after.p50)}, p99 ${ms(before.p99)} and ${ms(after.p99)} (mean ${ms(one.p99)}), max ${ms(one.max)} |`,
        `| the same among ${CUSTOMERS} customers × 2 endpoints | p50 ${ms(many.p50)}, p99 ${ms(many.p99)}, max ${ms(many.max)}; ${p99Ratio.toFixed(2)}× |`,
        `| consumers' CPU per event: the only customer / among ${CUSTOMERS} | ${one.cpuPerEvent.toFixed(2)} ms / ${many.cpuPerEvent.toFixed(2)} ms (${cpuRatio.toFixed(2)}×) |`,
        `| where the customer's endpoint's time went (p50 / p99): the only customer | ${one.split} |`,
        `| the same among ${CUSTOMERS} customers | ${many.split} |`,
        '',
        `customers goal: p99 and CPU per event within 10 % of the only customer's: p99 ${p99Ratio <= 1.1 ? 'met' : 'missed'}, CPU ${cpuRatio <= 1.1 ? 'met' : 'missed'}`,
      );
    }

    console.log(
      [
        '| measurement | figure |',
        '|---|---|',
        `| hookrail, ${EVENTS} events × ${ENDPOINTS} endpoints, ${WORKERS} workers | ${hookrailRate.toFixed(0)} deliveries/s |`,
        `| bare HTTP client, same ${expected} bodies, ${WORKERS} in flight | ${bare.toFixed(0)} requests/s |`,
        `| hookrail / bare client | ${(hookrailRate / bare).toFixed(2)} |`,
        `| accepted → delivered at ${RATE} events/s | p50 ${ms(quiet.p50)}, p99 ${ms(quiet.p99)}, max ${ms(quiet.max)} |`,
        `| the same beside an endpoint answering in 5 s | p50 ${ms(beside.p50)}, p99 ${ms(beside.p99)}, max ${ms(beside.max)} |`,
        `| the same beside ${SLOW_ENDPOINTS} endpoints answering in 5 s, maxInFlight ${DEFAULT_CAP} each | p50 ${ms(crowded.p50)}, p99 ${ms(crowded.p99)}, max ${ms(crowded.max)} |`,
        `| where the fast endpoint's time went (p50 / p99), alone | ${quietSplit} |`,
        `| the same, beside one slow endpoint | ${besideSplit} |`,
        `| the same, beside ${SLOW_ENDPOINTS} slow endpoints | ${crowdedSplit} |`,
        ...customerRows,
        '',
        `goals: ≥ 2,000 deliveries/s ${hookrailRate >= 2000 ? 'met' : 'missed'}, ≥ 0.5× the bare client ${hookrailRate >= bare / 2 ? 'met' : 'missed'}, ` +
          `p99 ≤ 100 ms ${quiet.p99 <= 100 ? 'met' : 'missed'}, slow endpoint changes p99 by ${(change * 100).toFixed(1)} % ` +
          `(slower by < 10 % ${change < 0.1 ? 'met' : 'missed'}), beside ${SLOW_ENDPOINTS} slow ones p99 ${crowdedRatio.toFixed(2)}× ` +
          `(within 2× ${crowdedRatio <= 2 ? 'met' : 'missed'})`,
      ].join('\n'),
    );
  } finally {
    await db.end().catch(() => undefined);
    await Promise.all([stop(ingress), stop(admin), stop(relay), stop(consumers), stop(receiver)]);
    await deleteTopicsStartingWith(kafka, namespace);
  }
}

async function adminCall(port: number, method: string, pathname: string, body: unknown): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${port}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      'content-type': 'application/json',
      'x-hookrail-operator': 'bench',
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function createEndpoint(
  port: number,
  url: string,
  eventTypes: string[],
  options: { maxInFlight?: number } = {},
): Promise<string> {
  return (await adminCall(port, 'POST', '/admin/webhook-endpoints', { url, eventTypes, ...options })).id;
}

/** The webhooks group has joined when it committed offsets or fanned out; before that, produce nothing. */
async function waitForConsumers(db: Client): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'hookrail-webhook-listener'`,
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the delivery workers did not start within 60 s');
}

/** Until no delivery is pending or sending. */
async function waitForIdleQueue(db: Client): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE state IN ('pending', 'sending')`,
    );
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('deliveries still queued after 60 s');
}

function orderEvent(orderId: string): CloudEvent {
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: '/webhooks/shop',
    type: 'shop.order.placed.v1',
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    subject: orderId,
    data: {
      orderId,
      customer: { id: 'cus_8f2b1c', email: 'ada@example.com' },
      amount: 4200,
      currency: 'EUR',
      lineItems: [{ sku: 'notebook', quantity: 2, unitAmount: 2100 }],
    },
  };
}

async function produceAll(kafka: ReturnType<typeof createKafka>, topic: string, events: CloudEvent[]): Promise<void> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  for (let start = 0; start < events.length; start += 2000)
    await producer.send({ topic, acks: -1, messages: events.slice(start, start + 2000).map(toKafkaRecord) });
  await producer.disconnect();
}

async function waitForReceipts(read: () => Promise<Receipt[]>, count: number, timeoutMs: number): Promise<Receipt[]> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const rows = await read();
    if (new Set(rows.map(([id]) => id)).size >= count || rows.length >= count) return rows;
    if (Date.now() > deadline)
      throw new Error(`the receiver got ${rows.length} of ${count} deliveries within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The same bodies, `copies` times each, to the same receiver, `concurrency` in flight on keep-alive connections. */
async function bareClient(port: number, bodies: string[], copies: number, concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const queue = Array.from({ length: copies }, (_, copy) =>
    bodies.map((body, i) => ({ body, id: `bare-${copy}-${i}` })),
  ).flat();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let next = queue.pop(); next; next = queue.pop()) await postOnce(agent, port, next.body, next.id);
    }),
  );
  agent.destroy();
  return (copies * bodies.length) / ((performance.now() - started) / 1000);
}

function postOnce(agent: http.Agent, port: number, body: string, id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/bare',
        agent,
        headers: { 'content-type': 'application/json', 'webhook-id': id, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', resolve);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** RATE events/s for SECONDS through the ingress; accepted (received_at) → receipt at the fast endpoint. */
async function latencyRun(
  db: Client,
  port: number,
  secret: string,
  read: () => Promise<Receipt[]>,
  extra: Record<string, unknown> = {},
) {
  const requests = signedRequests(secret, RATE * SECONDS, 5000, extra);
  const started = new Date();
  const load = await fixedRate(port, requests, RATE);
  const accepted = [...load.statuses.entries()].filter(([status]) => status === 202).reduce((sum, [, n]) => sum + n, 0);
  const { rows } = await db.query<{ id: string; at: number }>(
    `SELECT id::text, extract(epoch FROM received_at) * 1000 AS at FROM inbound_events WHERE received_at >= $1`,
    [started],
  );
  const receivedAt = new Map(rows.map((row) => [row.id, Number(row.at)]));
  const fast = await waitForReceipts(
    async () => (await read()).filter(([id]) => receivedAt.has(id)),
    accepted,
    120_000,
  );
  return { ...summary(fast.map(([id, at]) => at - receivedAt.get(id)!)), since: started };
}

/**
 * For the fast endpoint's deliveries of one phase, p50 / p99 of the two waits before its receiver sees them:
 * accepted → delivery row written by the fan-out, and delivery row → its first attempt started (the claim).
 */
async function whereTheTimeWent(db: Client, endpointId: string, since: Date): Promise<string> {
  const { rows } = await db.query<{ fan_out: number; claim: number }>(
    `SELECT extract(epoch FROM d.created_at - e.received_at) * 1000 AS fan_out,
            extract(epoch FROM (SELECT min(a.started_at) FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id)
                               - d.created_at) * 1000 AS claim
       FROM webhook_deliveries d JOIN inbound_events e ON e.id::text = d.event_id
      WHERE d.endpoint_id = $1 AND e.received_at >= $2`,
    [endpointId, since],
  );
  const fanOut = summary(rows.map((row) => Number(row.fan_out)));
  const claim = summary(rows.map((row) => Number(row.claim)));
  return `fan-out ${ms(fanOut.p50)} / ${ms(fanOut.p99)}, claim ${ms(claim.p50)} / ${ms(claim.p99)}`;
}

main().catch((error: Error) => {
  console.error(`bench:webhooks failed: ${error.stack}`);
  process.exit(1);
});
