import { Closable } from '@app/config';
import { CloudEvent, toKafkaRecord } from '@app/contracts';
import { freePort, orderEvent, waitFor } from '@app/testing';
import { Producer } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { FakeModelServer, ModelStats } from './dev-model/model.server';
import { taskIn } from './testing/agent-fixtures';

/**
 * The model goes down for 15 s under a stream of orders with notes. With the breaker opening after 3 failures and
 * probing every 1–3 s, 15 s holds the whole story (open, failed probes, claims held back, recovery). The attempt
 * budget is 2, so under the old rule the tasks tried during the outage would have died.
 */
describe('agent while the model is down (real Kafka, Postgres and HTTP model)', () => {
  const OUTAGE_MS = 15_000;
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let model: FakeModelServer;
  let consumers: Closable;
  let producer: Producer;
  let metricsPort: number;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('agent-outage', 'agent');
    model = await FakeModelServer.start({ apiKey });
    metricsPort = await freePort();
    consumers = await bed.startConsumers({
      METRICS_PORT: String(metricsPort),
      MODEL_BASE_URL: model.baseUrl,
      MODEL_API_KEY: apiKey,
      AGENT_WORKERS: '3',
      AGENT_LEASE_MS: '5000',
      AGENT_POLL_INTERVAL_MS: '50',
      AGENT_MAX_ATTEMPTS: '2',
      AGENT_RETRY_BASE_MS: '100',
      AGENT_RETRY_MAX_MS: '1000',
      CONSUMER_BREAKER_FAILURES: '3',
      CONSUMER_BREAKER_PROBE_MS: '1000',
      CONSUMER_BREAKER_PROBE_MAX_MS: '3000',
    });
    producer = bed.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await consumers?.close();
    await model?.close();
    await bed?.stop();
  });

  const send = (event: CloudEvent) => producer.send({ topic: bed.topic, acks: -1, messages: [toKafkaRecord(event)] });
  /** What the model saw, from its own `GET /_dev/stats`. */
  const modelStats = async () => (await (await fetch(`${model.url}/_dev/stats`)).json()) as ModelStats;
  const metric = async (line: RegExp): Promise<number | undefined> => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const match = text.split('\n').find((row) => line.test(row));
    return match === undefined ? undefined : Number(match.split(' ').pop());
  };
  const breakerOpen = () => metric(/^hookrail_consumer_breaker_open\{group="agent",dependency="model"\}/);
  const transitions = (state: string) =>
    metric(new RegExp(`^hookrail_consumer_breaker_transitions_total\\{.*group="agent".*state="${state}"\\}`));
  const breakerRow = async (): Promise<{ state: string; since: Date; last_error: string } | undefined> =>
    (
      await bed.dataSource.query(
        `SELECT state, since, last_error FROM dependency_breakers WHERE "group" = 'agent' AND dependency = 'model'`,
      )
    )[0];
  const tasksIn = async (state: string, ids: string[]) =>
    Number(
      (
        await bed.dataSource.query(
          `SELECT count(*) AS n FROM agent_tasks WHERE state = $1 AND event_id = ANY($2::varchar[])`,
          [state, ids],
        )
      )[0].n,
    );
  const deadTasks = async () =>
    Number((await bed.dataSource.query(`SELECT count(*) AS n FROM agent_tasks WHERE state = 'dead'`))[0].n);

  it('waits the outage out: the workers stop claiming, a probe every few seconds, no task dead, each done once after', async () => {
    const warmUp = orderEvent('ord-warm', { data: { note: 'gift wrap please' } });
    await send(warmUp);
    await waitFor(taskIn(bed.dataSource, warmUp.id, 'done'), { what: 'the warm-up task done', timeoutMs: 30_000 });

    model.configure({ failureRate: 1, failStatus: 503 });
    const before = await modelStats();
    const outageStart = Date.now();
    const stream: CloudEvent[] = [];
    // One order with a note every 200 ms for the whole outage.
    const producing = (async () => {
      while (Date.now() - outageStart < OUTAGE_MS) {
        const event = orderEvent(`ord-out-${stream.length}`, { data: { note: 'deliver to the back door' } });
        stream.push(event);
        await send(event);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();

    await waitFor(async () => (await breakerRow())?.state === 'open', { what: 'the breaker open', timeoutMs: 10_000 });
    expect(await breakerOpen()).toBe(1);
    expect((await breakerRow())!.last_error).toMatch(/^ModelUnavailableError: model answered 503/);

    await producing;
    const ids = stream.map((event) => event.id);
    await waitFor(async () => (await bed.committed()) === ids.length + 1, { what: 'every order enqueued' });
    // The model saw the failures that opened the breaker and a probe now and then, not a call per task.
    const outageCalls = (await modelStats()).requests - before.requests;
    expect(outageCalls).toBeGreaterThanOrEqual(5);
    expect(outageCalls).toBeLessThan(ids.length / 4);
    expect(await deadTasks()).toBe(0);
    expect((await breakerRow())!.state).toBe('open');

    model.configure({ failureRate: 0 });
    await waitFor(async () => (await tasksIn('done', ids)) === ids.length, {
      what: 'every task of the outage done',
      timeoutMs: 30_000,
    });
    await waitFor(async () => (await breakerRow())!.state === 'closed', { what: 'the breaker row closed' });
    expect(await breakerOpen()).toBe(0);
    expect(await transitions('open')).toBe(1);
    expect(await transitions('closed')).toBe(1);

    // Each task done once: one answered call per task, none dead, none dead-lettered.
    const after = await modelStats();
    expect(after.completed - before.completed).toBe(ids.length);
    expect(await metric(/^hookrail_agent_attempts_total\{outcome="done"\}/)).toBe(ids.length + 1);
    expect(await deadTasks()).toBe(0);
    expect(await metric(/^hookrail_consumer_dead_letters_total\{group="agent"/)).toBeUndefined();
  });

  it('still kills at once what the model refuses (a 4xx), which counts as an answer for the breaker', async () => {
    model.configure({ failNext: 1, failStatus: 400 });
    const refused = orderEvent('ord-refused', { data: { note: 'swap for size M' } });
    await send(refused);
    const dead = await waitFor(taskIn(bed.dataSource, refused.id, 'dead'), { what: 'the refused task dead' });
    expect(dead).toMatchObject({
      attempts: 1,
      dependencyFailures: 0,
      lastError: expect.stringMatching(/^ModelRequestRejectedError: model answered 400/),
    });
    expect((await breakerRow())!.state).toBe('closed');
    expect(await transitions('open')).toBe(1);
  });
});
