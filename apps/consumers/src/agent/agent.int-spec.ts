import { findAgentTask } from '@app/agent-tasks';
import { Closable } from '@app/config';
import { findGroupStatuses } from '@app/consumer-runtime';
import { HOOKRAIL_HEADERS, SHOP_ORDER_PLACED_V1 } from '@app/contracts';
import { orderEvent, produce, TopicReader, waitFor } from '@app/testing';
import { randomBytes } from 'node:crypto';
import { ConsumersTestBed } from '../testing/consumers-fixtures';
import { FakeModelServer } from './dev-model/model.server';
import { taskIn } from './testing/agent-fixtures';

describe('agent service (real Kafka, Postgres and HTTP model)', () => {
  const CEILING_MS = 3_000;
  const apiKey = randomBytes(16).toString('hex');
  let bed: ConsumersTestBed;
  let model: FakeModelServer;
  let consumers: Closable;

  beforeAll(async () => {
    bed = await ConsumersTestBed.start('agent', 'agent');
    model = await FakeModelServer.start({ apiKey });
    consumers = await bed.startConsumers({
      MODEL_BASE_URL: model.baseUrl,
      MODEL_API_KEY: apiKey,
      AGENT_WORKERS: '3',
      AGENT_LEASE_MS: '2000',
      AGENT_POLL_INTERVAL_MS: '50',
      AGENT_MAX_ATTEMPTS: '3',
      AGENT_RETRY_BASE_MS: '50',
      AGENT_RETRY_MAX_MS: '200',
      // A down model is retried until this long after the task's first failure (1 h by default).
      CONSUMER_RETRY_CEILING_MS: String(CEILING_MS),
      CONSUMER_BREAKER_PROBE_MS: '500',
      CONSUMER_BREAKER_PROBE_MAX_MS: '1000',
    });
  });

  afterAll(async () => {
    await consumers?.close();
    await model?.close();
    await bed?.stop();
  });

  it('a 10-second model call does not stall the partition: later events on it are consumed and worked meanwhile', async () => {
    model.configure({ nextLatenciesMs: [10_000] });
    const slow = orderEvent('ord-slow', { data: { note: 'please leave the parcel at the back door' } });
    await produce(bed.kafka, bed.topic, [slow]);
    await waitFor(() => model.stats().inFlight === 1, { what: 'the slow model call in flight' });

    const quick = [
      orderEvent('ord-quick-1', { data: { note: 'it is a gift, wrap it' } }),
      orderEvent('ord-quick-2', { data: { note: 'wrong size, swap for M' } }),
    ];
    await produce(bed.kafka, bed.topic, quick);
    await waitFor(async () => (await bed.committed()) === 3, { what: 'all three offsets committed' });
    for (const event of quick)
      await waitFor(taskIn(bed.dataSource, event.id, 'done'), { what: `${event.subject} done` });
    expect(model.stats().inFlight).toBe(1);
    expect(await findAgentTask(bed.dataSource, slow.id)).toMatchObject({ state: 'claimed', attempts: 1 });

    const done = await waitFor(taskIn(bed.dataSource, slow.id, 'done'), {
      what: 'the slow task done',
      timeoutMs: 20_000,
    });
    // 10 s against a 2 s lease: renewed all along, never taken over.
    expect(done).toMatchObject({ attempts: 1, result: { category: 'delivery', model: 'hookrail-dev' } });
    expect(model.stats()).toMatchObject({ requests: 3, completed: 3 });
  });

  it('a model that always fails: dead once the retry ceiling is spent, not its attempts, with the reason and the time tried, in agent.dlt; a replay after the fix completes it', async () => {
    const reader = await TopicReader.start(`${bed.namespace}agent.dlt`);
    try {
      model.configure({ failureRate: 1, failStatus: 503 });
      const doomed = orderEvent('ord-doomed', { data: { note: 'arrived broken, refund please' } });
      await produce(bed.kafka, bed.topic, [doomed]);

      const dead = await waitFor(taskIn(bed.dataSource, doomed.id, 'dead'), { what: 'the task dead' });
      expect(dead).toMatchObject({
        lastError: expect.stringMatching(/^ModelUnavailableError: model answered 503/),
      });
      // A down model does not spend AGENT_MAX_ATTEMPTS (3): every attempt found it down, and it died of the ceiling.
      expect(dead.attempts).toBeGreaterThan(3);
      expect(dead.dependencyFailures).toBe(dead.attempts);
      const triedForMs = dead.updatedAt.getTime() - dead.firstFailedAt!.getTime();
      expect(triedForMs).toBeGreaterThanOrEqual(CEILING_MS);
      const letter = await waitFor(
        () => reader.messages.find((message) => message.headers[HOOKRAIL_HEADERS.dltEventId] === doomed.id),
        { what: 'the dead letter' },
      );
      expect(letter.key).toBe('ord-doomed');
      expect(JSON.parse(letter.value!)).toEqual(doomed.data);
      expect(letter.headers).toMatchObject({
        ce_id: doomed.id,
        ce_type: SHOP_ORDER_PLACED_V1,
        [HOOKRAIL_HEADERS.dltGroup]: 'agent',
        [HOOKRAIL_HEADERS.dltTopic]: bed.topic,
        [HOOKRAIL_HEADERS.dltPartition]: '0',
        [HOOKRAIL_HEADERS.dltOffset]: '3',
        [HOOKRAIL_HEADERS.dltErrorClass]: 'ModelUnavailableError',
        [HOOKRAIL_HEADERS.dltAttempts]: String(dead.attempts),
        [HOOKRAIL_HEADERS.dltDependency]: 'model',
        [HOOKRAIL_HEADERS.dltRetriedForMs]: String(triedForMs),
      });
      expect(letter.headers[HOOKRAIL_HEADERS.dltErrorMessage]).toMatch(/^model answered 503/);
      expect(await findGroupStatuses(bed.dataSource, doomed.id)).toEqual([
        expect.objectContaining({ group: 'agent', status: 'dead', attempts: dead.attempts }),
      ]);

      model.configure({ failureRate: 0 });
      await produce(bed.kafka, `${bed.namespace}agent.replay`, [
        { key: letter.key!, value: letter.value!, headers: { ...letter.headers, [HOOKRAIL_HEADERS.replayCount]: '1' } },
      ]);
      const replayed = await waitFor(taskIn(bed.dataSource, doomed.id, 'done'), { what: 'the replayed task done' });
      expect(replayed).toMatchObject({ attempts: 1, replayCount: 1, result: { category: 'complaint' } });
      expect(await findGroupStatuses(bed.dataSource, doomed.id)).toEqual([
        expect.objectContaining({ group: 'agent', status: 'processed' }),
      ]);
      expect(
        reader.messages.filter((message) => message.headers[HOOKRAIL_HEADERS.dltEventId] === doomed.id),
      ).toHaveLength(1);
    } finally {
      await reader.stop();
    }
  });
});
