import { managerRows } from '@app/db';
import { JobHeartbeatRepository } from '@app/jobs';
import { lockRows, useTestDataSource, waitFor } from '@app/testing';
import { HISTORY_RETENTION_JOB, pruneHistory } from './history-retention';

describe('history retention', () => {
  const db = useTestDataSource('retention-test');

  /** A notification in `status`, created (and sent, when `sent`) `ageDays` ago. */
  async function notification(eventId: string, status: 'sending' | 'sent', ageDays: number): Promise<void> {
    await db.dataSource.query(
      `INSERT INTO notifications (event_id, order_id, recipient, subject, status, created_at, sent_at)
       VALUES ($1, 'o-1', 'a@example.com', 's', $2::varchar, now() - make_interval(days => $3), CASE WHEN $2::varchar = 'sent' THEN now() - make_interval(days => $3) END)`,
      [eventId, status, ageDays],
    );
  }

  /** An agent task in `state`, last changed `ageDays` ago. */
  async function task(eventId: string, state: string, ageDays: number, deadLettered = false): Promise<void> {
    await db.dataSource.query(
      `INSERT INTO agent_tasks (event_id, event_type, event, source_topic, source_partition, source_offset, state, updated_at, dead_lettered_at)
       VALUES ($1, 't', '{}', 'shop.orders', 0, '0', $2, now() - make_interval(days => $3), CASE WHEN $4::boolean THEN now() - make_interval(days => $3) END)`,
      [eventId, state, ageDays, deadLettered],
    );
  }

  /** A saga of order `orderId` in `state`, last changed (and ended, unless in flight or failed) `ageDays` ago. */
  async function saga(orderId: string, state: string, ageDays: number): Promise<void> {
    const [{ id }] = await db.dataSource.query(
      `INSERT INTO sagas (id, type, correlation_id, start_event_id, state, step, step_name, attempts, version, data,
                          updated_at, ended_at)
       VALUES (gen_random_uuid(), 'order-fulfilment', $1, $1, $2::varchar, 0, 'reserve-stock', 0, 1, '{}',
               now() - make_interval(days => $3),
               CASE WHEN $2::varchar IN ('completed', 'compensated', 'cancelled') THEN now() - make_interval(days => $3) END)
       RETURNING id`,
      [orderId, state, ageDays],
    );
    await db.dataSource.query(
      `INSERT INTO saga_steps (saga_id, seq, step, phase, event, state) VALUES ($1, 1, 'reserve-stock', 'action', 'started', 'running')`,
      [id],
    );
  }

  const eventIds = async (table: string): Promise<string[]> =>
    (await db.dataSource.query(`SELECT event_id FROM ${table} ORDER BY event_id`)).map(
      (row: { event_id: string }) => row.event_id,
    );

  it('deletes finished rows past the window in batches, keeps recent and unfinished ones, and a concurrent run skips', async () => {
    for (const n of [1, 2, 3]) await notification(`old-sent-${n}`, 'sent', 40);
    await notification('old-sending', 'sending', 40);
    await notification('recent-sent', 'sent', 1);
    for (const n of [1, 2, 3]) await task(`old-done-${n}`, 'done', 40);
    await task('old-dead', 'dead', 40, true);
    await task('old-dead-not-dead-lettered', 'dead', 40);
    await task('old-dead-replayed', 'dead', 40, true);
    for (const state of ['pending', 'claimed', 'failed']) await task(`old-${state}`, state, 40);
    await task('recent-done', 'done', 1);
    for (const n of [1, 2]) await saga(`old-completed-${n}`, 'completed', 40);
    await saga('old-compensated', 'compensated', 40);
    await saga('old-cancelled', 'cancelled', 40);
    for (const state of ['running', 'compensating', 'failed']) await saga(`old-${state}`, state, 40);
    await saga('recent-completed', 'completed', 1);

    // A replay is about to reset a dead task: holding its row lock keeps the first run inside its delete.
    const replay = await lockRows(
      db.database.url,
      `SELECT id FROM agent_tasks WHERE event_id = 'old-dead-replayed' FOR UPDATE`,
    );

    const settings = { retentionSeconds: 30 * 86_400, batchSize: 2 };
    const first = pruneHistory(db.dataSource, settings);
    await waitFor(
      async () =>
        (
          await db.dataSource.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).length === 1,
      {
        what: 'the first run to wait for the locked task',
      },
    );
    expect(await pruneHistory(db.dataSource, settings)).toEqual({ ran: false, reason: 'locked' });

    await replay.client.query(`UPDATE agent_tasks SET state = 'pending' WHERE event_id = 'old-dead-replayed'`);
    await replay.commit();
    expect(await first).toEqual({ ran: true, affected: 11, deleted: { notifications: 3, agent_tasks: 4, sagas: 4 } });

    expect(await eventIds('notifications')).toEqual(['old-sending', 'recent-sent']);
    expect(await eventIds('agent_tasks')).toEqual([
      'old-claimed',
      'old-dead-not-dead-lettered',
      'old-dead-replayed',
      'old-failed',
      'old-pending',
      'recent-done',
    ]);
    const sagas = await db.dataSource.query(
      `SELECT correlation_id, (SELECT count(*)::int FROM saga_steps WHERE saga_id = id) AS steps FROM sagas ORDER BY 1`,
    );
    expect(sagas).toEqual(
      ['old-compensating', 'old-failed', 'old-running', 'recent-completed'].map((id) => ({
        correlation_id: id,
        steps: 1,
      })),
    );
    expect(await db.dataSource.query(`SELECT count(*)::int AS n FROM saga_steps`)).toEqual([{ n: 4 }]);
    const heartbeat = await new JobHeartbeatRepository(managerRows(db.dataSource.manager)).find(HISTORY_RETENTION_JOB);
    expect(heartbeat).toMatchObject({ lastAffected: '11', lastError: null });
  });
});
