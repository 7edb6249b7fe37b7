import { HOOKRAIL_HEADERS } from '@app/contracts';
import { connect, managerRows } from '@app/db';
import { JobHeartbeatRepository } from '@app/jobs';
import { createTestDatabase, DeadLetterScenario, orderEvent, TestDatabase, waitFor } from '@app/testing';
import { Producer } from 'kafkajs';
import { DataSource } from 'typeorm';
import { DEAD_LETTER_RETENTION_JOB, DeadLetterAudit, pruneDeadLetters, purgeDeadLetters, replayDeadLetters } from '.';

describe('dead-letter store, replay and purge (real Kafka, real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let scenario: DeadLetterScenario;
  let producer: Producer;
  const replayProducer = async () => producer;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await connect({ url: database.url, applicationName: 'dead-letters-test', poolSize: 6 });
    scenario = await DeadLetterScenario.start(dataSource);
    producer = scenario.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
    await scenario?.stop();
    await dataSource?.destroy();
    await database?.drop();
  });

  const snapshot = (ids: string[]) =>
    dataSource.query(
      `SELECT id, status, replay_count, updated_at FROM dead_letters WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [ids],
    );
  const audit = () => new DeadLetterAudit(dataSource).recent(100);

  it('indexes a dead letter once, also when its DLT message is delivered again', async () => {
    const event = orderEvent('order-redelivered');
    await scenario.publish([event]);
    const row = await scenario.deadLetterOf(event.id);
    expect(row).toMatchObject({
      status: 'dead',
      replay_count: 0,
      error_class: 'PermanentError',
      key: 'order-redelivered',
    });

    // The runtime produced the same dead letter twice (it crashed before committing the original offset).
    const [stored] = await dataSource.query(
      `SELECT payload, headers, original_topic, original_partition, original_offset FROM dead_letters WHERE id = $1`,
      [row.id],
    );
    const before = await scenario.storeCommitted();
    await producer.send({
      topic: scenario.failing.dltTopic,
      acks: -1,
      messages: [
        {
          key: 'order-redelivered',
          value: stored.payload,
          headers: {
            ...stored.headers,
            [HOOKRAIL_HEADERS.dltGroup]: scenario.failing.group,
            [HOOKRAIL_HEADERS.dltTopic]: stored.original_topic,
            [HOOKRAIL_HEADERS.dltPartition]: String(stored.original_partition),
            [HOOKRAIL_HEADERS.dltOffset]: String(stored.original_offset),
            [HOOKRAIL_HEADERS.dltEventId]: event.id,
            [HOOKRAIL_HEADERS.dltErrorClass]: 'PermanentError',
          },
        },
      ],
    });
    await waitFor(async () => (await scenario.storeCommitted()) > before, {
      what: 'the store to read the second copy',
    });
    expect(await dataSource.query(`SELECT id FROM dead_letters WHERE event_id = $1`, [event.id])).toEqual([
      { id: row.id },
    ]);
  });

  it('a dry run changes nothing, and a filtered replay touches only the matching rows', async () => {
    const events = ['order-f1', 'order-f2', 'order-f3'].map((key) => orderEvent(key));
    await scenario.publish(events);
    const rows = await Promise.all(events.map((event) => scenario.deadLetterOf(event.id)));
    const ids = rows.map((row) => row.id);
    const before = await snapshot(ids);
    const auditBefore = await audit();

    const dry = await replayDeadLetters(dataSource, replayProducer, {
      filter: { group: scenario.failing.group, key: 'order-f2' },
      actor: 'test:ada',
      dryRun: true,
    });
    expect(dry).toMatchObject({ dryRun: true, matched: 1, replayed: [] });
    expect(dry.candidates?.map((candidate) => candidate.id)).toEqual([rows[1].id]);
    expect(await snapshot(ids)).toEqual(before);
    expect(await audit()).toEqual(auditBefore);
    const replayEnd = await scenario.endOffset(scenario.failing.replayTopic);

    const done = await replayDeadLetters(dataSource, replayProducer, {
      filter: { group: scenario.failing.group, key: 'order-f2' },
      actor: 'test:ada',
    });
    expect(done).toMatchObject({ dryRun: false, matched: 1, replayed: [rows[1].id] });
    expect(await scenario.endOffset(scenario.failing.replayTopic)).toBe(replayEnd + 1);
    await scenario.deadLetterOf(events[1].id, (row) => row.status === 'dead' && row.replay_count === 1);
    const after = await snapshot(ids);
    expect(after.filter((row: { id: string }) => row.id !== rows[1].id)).toEqual(
      before.filter((row: { id: string }) => row.id !== rows[1].id),
    );
    expect((await audit())[0]).toMatchObject({
      actor: 'test:ada',
      action: 'replay',
      count: 1,
      deadLetterIds: [rows[1].id],
      filter: { group: scenario.failing.group, key: 'order-f2' },
    });
  });

  it('a replay without a fix comes back to the same row with replay_count 1; after the fix it is applied once, by the failing group only', async () => {
    const event = orderEvent('order-replayed');
    await scenario.publish([event]);
    await waitFor(async () => (await scenario.effects(scenario.healthy.group)).includes(event.id), {
      what: 'the healthy group to apply the event',
    });
    const { id } = await scenario.deadLetterOf(event.id);
    const healthyCalls = scenario.calls.get(scenario.healthy.group);

    await replayDeadLetters(dataSource, replayProducer, { filter: { ids: [id] }, actor: 'test:ada' });
    const returned = await scenario.deadLetterOf(event.id, (row) => row.status === 'dead' && row.replay_count === 1);
    expect(returned.id).toBe(id);

    scenario.fixed = true;
    try {
      const result = await replayDeadLetters(dataSource, replayProducer, { filter: { ids: [id] }, actor: 'test:bob' });
      expect(result.replayed).toEqual([id]);
      const resolved = await scenario.deadLetterOf(event.id, (row) => row.status === 'resolved');
      expect(resolved).toMatchObject({ id, replay_count: 2 });
    } finally {
      scenario.fixed = false;
    }
    expect((await scenario.effects(scenario.failing.group)).filter((eventId) => eventId === event.id)).toHaveLength(1);
    expect((await scenario.effects(scenario.healthy.group)).filter((eventId) => eventId === event.id)).toHaveLength(1);
    expect(scenario.calls.get(scenario.healthy.group)).toBe(healthyCalls);
    expect(await scenario.endOffset(scenario.healthy.replayTopic)).toBe(0);
    const replays = (await audit()).filter((entry) => entry.deadLetterIds.includes(id));
    expect(replays.map((entry) => [entry.actor, entry.action, entry.count])).toEqual([
      ['test:bob', 'replay', 1],
      ['test:ada', 'replay', 1],
    ]);
    const again = await replayDeadLetters(dataSource, replayProducer, { filter: { ids: [id] }, actor: 'test:ada' });
    expect(again).toMatchObject({ matched: 0, replayed: [] });

    // A group that accepted the replay may still give up on it later (the agent's task dies again): same row, dead.
    await producer.send({
      topic: scenario.failing.dltTopic,
      acks: -1,
      messages: [
        {
          key: 'order-replayed',
          value: JSON.stringify(event.data),
          headers: {
            [HOOKRAIL_HEADERS.dltGroup]: scenario.failing.group,
            [HOOKRAIL_HEADERS.dltTopic]: scenario.failing.replayTopic,
            [HOOKRAIL_HEADERS.dltPartition]: '0',
            [HOOKRAIL_HEADERS.dltOffset]: '999',
            [HOOKRAIL_HEADERS.dltEventId]: event.id,
            [HOOKRAIL_HEADERS.dltErrorClass]: 'ModelError',
            [HOOKRAIL_HEADERS.replayCount]: '2',
            [HOOKRAIL_HEADERS.deadLetterId]: id,
          },
        },
      ],
    });
    expect(await scenario.deadLetterOf(event.id, (row) => row.status === 'dead')).toMatchObject({
      id,
      replay_count: 2,
      error_class: 'ModelError',
    });
  });

  it('paces a bulk replay to its rate', async () => {
    const events = ['order-b1', 'order-b2', 'order-b3', 'order-b4'].map((key) => orderEvent(key));
    await scenario.publish(events);
    const ids = (await Promise.all(events.map((event) => scenario.deadLetterOf(event.id)))).map((row) => row.id);

    const startedAt = Date.now();
    const result = await replayDeadLetters(dataSource, replayProducer, {
      filter: { ids },
      actor: 'test:ada',
      ratePerSecond: 10,
    });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(300);
    expect(result.replayed.sort()).toEqual([...ids].sort());
    await Promise.all(
      events.map((event) => scenario.deadLetterOf(event.id, (row) => row.status === 'dead' && row.replay_count === 1)),
    );
  });

  it('purges dead letters (audited), and the retention job deletes finished ones past the TTL only', async () => {
    const event = orderEvent('order-purged');
    await scenario.publish([event]);
    const { id } = await scenario.deadLetterOf(event.id);

    const purged = await purgeDeadLetters(dataSource, { filter: { ids: [id] }, actor: 'test:ada' });
    expect(purged).toMatchObject({ matched: 1, purged: [id] });
    expect((await audit())[0]).toMatchObject({ actor: 'test:ada', action: 'purge', count: 1, deadLetterIds: [id] });
    await scenario.deadLetterOf(event.id, (row) => row.status === 'purged');

    const dead = Number((await dataSource.query(`SELECT count(*) AS n FROM dead_letters WHERE status = 'dead'`))[0].n);
    expect(await pruneDeadLetters(dataSource, { retentionSeconds: 3600 })).toEqual({ ran: true, affected: 0 });
    await dataSource.query(`UPDATE dead_letters SET purged_at = now() - interval '2 hours' WHERE id = $1`, [id]);
    expect(await pruneDeadLetters(dataSource, { retentionSeconds: 3600 })).toEqual({ ran: true, affected: 1 });
    expect(await dataSource.query(`SELECT id FROM dead_letters WHERE id = $1`, [id])).toEqual([]);
    expect(Number((await dataSource.query(`SELECT count(*) AS n FROM dead_letters WHERE status = 'dead'`))[0].n)).toBe(
      dead,
    );
    expect(
      await new JobHeartbeatRepository(managerRows(dataSource.manager)).find(DEAD_LETTER_RETENTION_JOB),
    ).toMatchObject({
      lastAffected: '1',
      lastError: null,
    });
  });
});
