// npm run bench:agent — the agent's model tasks on the compiled consumers app (`CONSUMER_GROUPS=agent`, started as
// `npm run start:consumers` starts it, with its heap flags), one fresh database, topics of its own, and the
// development model answering every call in BENCH_MODEL_LATENCY_MS (100). BENCH_TASKS (3000) order events with a note
// are produced straight to Kafka, and the agent's BENCH_AGENT_WORKERS (32) slots call the model for each. Figure:
// tasks done per second, from the first task written to the last one done (agent_tasks). Baselines in the same run:
// the bound the slots set (workers / latency), and the agent's own model client calling the same model with as many
// calls in flight, as fast as it can.
import 'reflect-metadata';
import { CloudEvent, dltTopic, replayTopic, TOPICS, toKafkaRecord } from '@app/contracts';
import { createKafka, kafkaFromEnv, ensureTopics } from '@app/kafka';
import { orderEvent } from '@app/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Client } from 'pg';
import { FakeModelServer } from '../../apps/consumers/src/agent/dev-model/model.server';
import { ModelClient } from '../../apps/consumers/src/agent/model.client';
import { triagePrompt } from '../../apps/consumers/src/agent/order-triage.prompt';
import { appNodeOptions } from '../lib/app-node-options';
import { freshDatabase, root, spawnBuilt, stop } from '../lib/ingress-fixtures';
import { deleteTopicsStartingWith } from '../lib/kafka-topics';

const TASKS = Number(process.env.BENCH_TASKS || 3_000);
const WORKERS = Number(process.env.BENCH_AGENT_WORKERS || 32);
const LATENCY_MS = Number(process.env.BENCH_MODEL_LATENCY_MS || 100);
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:9092').split(',');

async function main(): Promise<void> {
  console.log(
    `bench:agent on ${os.cpus().length} cores: ${TASKS} tasks, ${WORKERS} agent workers, the model answering in ${LATENCY_MS} ms\n`,
  );
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  const url = await freshDatabase('hookrail_bench_agent');
  const namespace = `bench-agent-${randomBytes(3).toString('hex')}-`;
  const kafka = createKafka('hookrail-bench-agent', { ...kafkaFromEnv(), KAFKA_BROKERS: brokers });
  await ensureTopics(
    kafka,
    [TOPICS.shopOrders, dltTopic('agent'), replayTopic('agent')].map((name) => ({
      topic: `${namespace}${name}`,
      numPartitions: 6,
    })),
  );
  const model = await FakeModelServer.start({ port: 0, behaviour: { latencyMs: LATENCY_MS, failureRate: 0 } });
  const consumers = spawnBuilt(
    'dist/apps/consumers/src/main.js',
    {
      DATABASE_URL: url,
      KAFKA_BROKERS: brokers.join(','),
      KAFKA_NAMESPACE: namespace,
      CONSUMER_GROUPS: 'agent',
      DEAD_LETTER_STORE: 'false',
      MODEL_BASE_URL: model.baseUrl,
      AGENT_WORKERS: String(WORKERS),
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
    },
    appNodeOptions('consumers'),
  );
  const db = new Client({ connectionString: url });
  try {
    await db.connect();
    const note = 'please gift-wrap it and leave it with the neighbour';
    const events = Array.from({ length: TASKS }, (_, i) =>
      orderEvent(`ord_${i}`, { source: '/webhooks/shop', data: { note } }),
    );
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic: `${namespace}${TOPICS.shopOrders}`, acks: -1, messages: events.map(toKafkaRecord) });
    await producer.disconnect();
    const { seconds, done } = await waitForTasks(db);
    const hookrail = (done - 1) / seconds;
    const bound = (WORKERS * 1000) / LATENCY_MS;
    const bare = await bareClient(model.baseUrl, events);
    console.log(
      [
        '| measurement | figure |',
        '|---|---|',
        `| hookrail agent, ${TASKS} tasks, ${WORKERS} workers | ${hookrail.toFixed(0)} tasks/s |`,
        `| the slots' bound, ${WORKERS} workers / ${LATENCY_MS} ms | ${bound.toFixed(0)} calls/s |`,
        `| the model client alone, ${WORKERS} calls in flight | ${bare.toFixed(0)} calls/s |`,
        `| hookrail / bound, hookrail / model client alone | ${(hookrail / bound).toFixed(2)}, ${(hookrail / bare).toFixed(2)} |`,
        `| model calls seen by the model | ${model.stats().completed} (${TASKS} tasks + ${TASKS} of the baseline) |`,
      ].join('\n'),
    );
  } finally {
    await db.end().catch(() => undefined);
    await stop(consumers);
    await model.close();
    await deleteTopicsStartingWith(kafka, namespace);
  }
}

/** Polls until every task is done (or 10 minutes passed); the span from the first written to the last done. */
async function waitForTasks(db: Client): Promise<{ seconds: number; done: number }> {
  for (const deadline = Date.now() + 600_000; ;) {
    const { rows } = await db.query(
      `SELECT count(*) FILTER (WHERE state = 'done')::int AS done, count(*)::int AS total,
              extract(epoch FROM max(updated_at) FILTER (WHERE state = 'done') - min(created_at))::float8 AS seconds
         FROM agent_tasks`,
    );
    if (rows[0].done >= TASKS) return { seconds: rows[0].seconds, done: rows[0].done };
    if (Date.now() > deadline)
      throw new Error(`only ${rows[0].done} of ${TASKS} tasks done (${rows[0].total} written) after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The same prompts through the agent's model client, WORKERS at a time: calls per second. */
async function bareClient(baseUrl: string, events: CloudEvent[]): Promise<number> {
  const client = new ModelClient({ baseUrl, model: 'hookrail-dev', timeoutMs: 30_000 });
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next < events.length) await client.complete(triagePrompt(events[next++] as CloudEvent<any>));
    }),
  );
  return events.length / (Number(process.hrtime.bigint() - started) / 1e9);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`bench:agent failed: ${error.stack}`);
    process.exit(1);
  },
);
