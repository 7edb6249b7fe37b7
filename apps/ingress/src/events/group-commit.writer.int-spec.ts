import { Database } from '@app/db';
import { InboundEventRepository, NewInboundEvent } from '@app/inbound-events';
import { NewOutboxRow } from '@app/outbox';
import { createLogger } from '@app/logger';
import { useTestDataSource, waitFor } from '@app/testing';
import { createHash, randomUUID } from 'node:crypto';
import { GroupCommitSettings, GroupCommitWriter } from './group-commit.writer';
import { IngressMetrics } from '../metrics/ingress.metrics';
import { OverloadedError } from './overload';

describe('the group commit', () => {
  const db = useTestDataSource('group-commit-test', 6);

  function delivery(senderEventId: string, payloadJson = `{"n":"${senderEventId}"}`, key = 'order-1') {
    const id = randomUUID();
    const event: NewInboundEvent = {
      id,
      source: 'shop',
      senderEventId,
      type: 'shop.order.placed.v1',
      aggregateId: key,
      payloadHash: createHash('sha256').update(payloadJson).digest('hex'),
      payloadJson,
      scheme: 'standard-webhooks',
      headers: { 'webhook-id': senderEventId },
    };
    const outbox: NewOutboxRow = { lane: 3, eventId: id, topic: 'shop.orders', key, value: payloadJson, headers: {} };
    return { event, outbox };
  }

  function writer(settings: Partial<GroupCommitSettings> = {}) {
    const repository = new InboundEventRepository();
    const database = { connection: async () => db.dataSource } as unknown as Database;
    const metrics = new IngressMetrics();
    const groupCommit = new GroupCommitWriter(
      { maxRows: 100, maxWaitMs: 20, maxInFlight: 1, maxPending: 1000, commitTimeoutMs: 10_000, ...settings },
      database,
      repository,
      metrics,
      createLogger('group-commit-test', 'silent'),
    );
    writers.push(groupCommit);
    return { groupCommit, repository, metrics };
  }
  const writers: GroupCommitWriter[] = [];
  afterAll(() => writers.forEach((groupCommit) => groupCommit.onApplicationShutdown()));

  /** Holds inbound_events locked in a transaction of its own, so that every insert waits, until `release`. */
  async function lockInboundEvents(): Promise<{ release(): Promise<void> }> {
    const runner = db.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query('LOCK TABLE inbound_events IN ACCESS EXCLUSIVE MODE');
    return {
      release: async () => {
        await runner.commitTransaction();
        await runner.release();
      },
    };
  }

  const shedCount = async (metrics: IngressMetrics, reason: string) =>
    (await metrics.registry.getSingleMetric('hookrail_ingress_shed_total')!.get()).values.find(
      (value) => value.labels.reason === reason,
    )?.value ?? 0;

  it('sheds at once beyond its bound, answers the rest by their deadline, and records nothing it dropped', async () => {
    const { groupCommit, metrics } = writer({ maxRows: 1, maxInFlight: 1, maxPending: 3, commitTimeoutMs: 400 });
    const lock = await lockInboundEvents();
    const ids = ['shed-1', 'shed-2', 'shed-3', 'shed-4', 'shed-5'];
    const started = Date.now();
    const answers = ids.map((id) => {
      const { event, outbox } = delivery(id);
      return groupCommit.write(event, outbox).then(
        (inserted) => ({ inserted, at: Date.now() - started }),
        (error: OverloadedError) => ({
          reason: error.reason,
          mayBeRecorded: error.mayBeRecorded,
          at: Date.now() - started,
        }),
      );
    });
    // The fourth and fifth find three waiting (one in its statement, two queued): shed at once.
    const [fourth, fifth] = await Promise.all(answers.slice(3));
    expect([fourth, fifth]).toEqual([
      expect.objectContaining({ reason: 'queue_full' }),
      expect.objectContaining({ reason: 'queue_full' }),
    ]);
    expect(Math.max(fourth.at, fifth.at)).toBeLessThan(200);
    // At its deadline, the one in its statement may still commit; the queued ones are dropped.
    const [first, second, third] = await Promise.all(answers.slice(0, 3));
    expect([first, second, third]).toEqual([
      expect.objectContaining({ reason: 'commit_timeout', mayBeRecorded: true }),
      expect.objectContaining({ reason: 'commit_timeout', mayBeRecorded: false }),
      expect.objectContaining({ reason: 'commit_timeout', mayBeRecorded: false }),
    ]);
    expect(Math.max(first.at, second.at, third.at)).toBeLessThan(1_000);
    await lock.release();
    await waitFor(async () => (await rowsOf(ids)).length === 1, { what: 'the statement in flight committed' });
    expect((await rowsOf(ids)).map((row: { sender_event_id: string }) => row.sender_event_id)).toEqual(['shed-1']);
    expect([await shedCount(metrics, 'queue_full'), await shedCount(metrics, 'commit_timeout')]).toEqual([2, 3]);
    // Once the commits catch up, deliveries are taken again.
    const { event, outbox } = delivery('shed-2');
    expect(await groupCommit.write(event, outbox)).toBe(true);
  });

  it('sheds new deliveries while the oldest waiting one has waited half its time', async () => {
    const { groupCommit } = writer({ maxRows: 1, maxInFlight: 1, commitTimeoutMs: 1_000 });
    const lock = await lockInboundEvents();
    const waiting = ['delay-1', 'delay-2'].map((id) => {
      const { event, outbox } = delivery(id);
      return groupCommit.write(event, outbox).catch((error: OverloadedError) => error.reason);
    });
    await waitFor(() => groupCommit.admit() === 'queue_delay', { what: 'the queue waited half the timeout' });
    const { event, outbox } = delivery('delay-3');
    await expect(groupCommit.write(event, outbox)).rejects.toMatchObject({ reason: 'queue_delay' });
    await lock.release();
    await Promise.all(waiting);
  });

  const rowsOf = (senderEventIds: string[]) =>
    db.dataSource.query(
      `SELECT e.id, e.sender_event_id, e.xmin::text AS event_tx, o.id AS outbox_id, o.xmin::text AS outbox_tx
         FROM inbound_events e LEFT JOIN outbox o ON o.event_id = e.id
        WHERE e.sender_event_id = ANY($1) ORDER BY o.id`,
      [senderEventIds],
    );

  it('writes concurrent deliveries in one transaction, and their outbox rows in the order they came', async () => {
    const { groupCommit } = writer();
    const ids = ['g1-c', 'g1-a', 'g1-d', 'g1-b'];
    const deliveries = ids.map((id) => delivery(id));
    const inserted = await Promise.all(deliveries.map(({ event, outbox }) => groupCommit.write(event, outbox)));

    expect(inserted).toEqual([true, true, true, true]);
    const rows = await rowsOf(ids);
    expect(rows.map((row: { sender_event_id: string }) => row.sender_event_id)).toEqual(ids);
    expect(
      new Set(rows.flatMap((row: { event_tx: string; outbox_tx: string }) => [row.event_tx, row.outbox_tx])).size,
    ).toBe(1);
    expect(rows.map((row: { id: string }) => row.id)).toEqual(deliveries.map(({ event }) => event.id));
  });

  it('inserts one of two deliveries of one sender event in the same group; the other finds it taken', async () => {
    const { groupCommit } = writer();
    const first = delivery('g2-same', '{"v":1}');
    const second = delivery('g2-same', '{"v":2}');
    const other = delivery('g2-other');
    const results = await Promise.all(
      [first, second, other].map(({ event, outbox }) => groupCommit.write(event, outbox)),
    );

    expect(results).toEqual([true, false, true]);
    const rows = await rowsOf(['g2-same', 'g2-other']);
    expect(rows.map((row: { id: string }) => row.id)).toEqual([first.event.id, other.event.id]);
  });

  it('finds a sender event committed earlier taken, and still inserts the rest of the group', async () => {
    const { groupCommit } = writer();
    const earlier = delivery('g3-earlier');
    expect(await groupCommit.write(earlier.event, earlier.outbox)).toBe(true);

    const again = delivery('g3-earlier');
    const fresh = delivery('g3-fresh');
    expect(await Promise.all([again, fresh].map(({ event, outbox }) => groupCommit.write(event, outbox)))).toEqual([
      false,
      true,
    ]);
    expect((await rowsOf(['g3-earlier'])).map((row: { id: string }) => row.id)).toEqual([earlier.event.id]);
  });

  it('fails only the delivery whose row the database refuses; the others of its group are committed', async () => {
    const { groupCommit } = writer();
    // jsonb refuses a NUL character, which JSON.parse accepts.
    const refused = delivery('g4-refused', '{"note":"\\u0000"}');
    const fine = [delivery('g4-a'), delivery('g4-b')];
    const outcomes = await Promise.allSettled(
      [fine[0], refused, fine[1]].map(({ event, outbox }) => groupCommit.write(event, outbox)),
    );

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await rowsOf(['g4-a', 'g4-b', 'g4-refused'])).map((row: { id: string }) => row.id)).toEqual(
      fine.map(({ event }) => event.id),
    );
  });

  it('lets two groups in flight at once take the same sender events in opposite orders without a deadlock', async () => {
    const { groupCommit, repository } = writer({ maxRows: 2, maxInFlight: 2 });
    const oneByOne = jest.spyOn(repository, 'insertWithOutbox');
    const [x1, x2, y1, y2] = [delivery('g5-k1'), delivery('g5-k2'), delivery('g5-k2'), delivery('g5-k1')];
    const results = await Promise.all([x1, x2, y1, y2].map(({ event, outbox }) => groupCommit.write(event, outbox)));

    // Each sender event inserted once, by one of the two groups, and no group fell back to one statement per row
    // (which is what a deadlock, or any failed group statement, would have caused).
    expect(results.filter(Boolean)).toHaveLength(2);
    expect(await rowsOf(['g5-k1', 'g5-k2'])).toHaveLength(2);
    expect(oneByOne).not.toHaveBeenCalled();
  });
});
