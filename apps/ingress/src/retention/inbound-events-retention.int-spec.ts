import { managerRows } from '@app/db';
import { InboundEventRepository } from '@app/inbound-events';
import { JobHeartbeatRepository } from '@app/jobs';
import { lockRows, useTestDataSource, waitForJobLock } from '@app/testing';
import { INBOUND_EVENTS_RETENTION_JOB, pruneInboundEvents } from './inbound-events-retention';

describe('inbound events retention', () => {
  const db = useTestDataSource('retention-test');

  /** `count` events received `ageDays` ago, sender ids `<prefix>-<n>`. */
  async function seed(prefix: string, count: number, ageDays: number): Promise<void> {
    await db.dataSource.query(
      `INSERT INTO inbound_events (id, source, sender_event_id, type, aggregate_id, payload_hash, payload, received_at)
       SELECT gen_random_uuid(), 'shop', $1 || '-' || n, 'order.placed', 'o-' || n, repeat('0', 64), '{}', now() - make_interval(days => $3)
         FROM generate_series(1, $2) n`,
      [prefix, count, ageDays],
    );
  }

  const senderIds = async (): Promise<string[]> =>
    (await db.dataSource.query(`SELECT sender_event_id FROM inbound_events ORDER BY 1`)).map(
      (row: { sender_event_id: string }) => row.sender_event_id,
    );

  it('deletes events past the window in batches, keeps recent ones and the outbox, and a concurrent run skips', async () => {
    await seed('old', 25, 31);
    await seed('recent', 3, 29);
    // An old event whose outbox row is still there (parked): nothing references inbound_events, so both deletes go on.
    const [old] = await db.dataSource.query(`SELECT id FROM inbound_events WHERE sender_event_id = 'old-1'`);
    await db.dataSource.query(
      `INSERT INTO outbox (lane, event_id, topic, key, value, headers, parked_at) VALUES (0, $1, 't', 'k', '{}', '{}', now())`,
      [old.id],
    );

    // Hold a row lock on one expired row, so that the first run is still deleting when the second one starts.
    const blocker = await lockRows(
      db.database.url,
      `SELECT id FROM inbound_events WHERE sender_event_id = 'old-25' FOR UPDATE`,
    );

    const settings = { retentionSeconds: 30 * 86_400, batchSize: 10 };
    const first = pruneInboundEvents(db.dataSource, settings);
    await waitForJobLock(db.dataSource);
    expect(await pruneInboundEvents(db.dataSource, settings)).toEqual({ ran: false, reason: 'locked' });

    await blocker.commit();
    expect(await first).toEqual({ ran: true, affected: 25 });

    expect(await senderIds()).toEqual(['recent-1', 'recent-2', 'recent-3']);
    expect(await db.dataSource.query(`SELECT count(*)::int AS n FROM outbox`)).toEqual([{ n: 1 }]);
    // GET /events/:id reads this: a pruned event is not found (404).
    expect(await new InboundEventRepository().findById(db.dataSource.manager, old.id)).toBeUndefined();
    const heartbeat = await new JobHeartbeatRepository(managerRows(db.dataSource.manager)).find(
      INBOUND_EVENTS_RETENTION_JOB,
    );
    expect(heartbeat).toMatchObject({ lastAffected: '25', lastError: null });
  });
});
