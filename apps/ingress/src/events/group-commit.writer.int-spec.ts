import { Database } from '@app/db';
import { NewOutboxRow } from '@app/outbox';
import { useTestDataSource } from '@app/testing';
import { createHash, randomUUID } from 'node:crypto';
import { GroupCommitSettings, GroupCommitWriter } from './group-commit.writer';
import { InboundEventRepository, NewInboundEvent } from './inbound-event.repository';

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
    const groupCommit = new GroupCommitWriter(
      { maxRows: 100, maxWaitMs: 20, maxInFlight: 1, ...settings },
      database,
      repository,
    );
    return { groupCommit, repository };
  }

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
