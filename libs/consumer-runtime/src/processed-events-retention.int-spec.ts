import { JOB_LOCK_SPACE, jobLockKey } from '@app/jobs';
import { useTestDataSource } from '@app/testing';
import { PROCESSED_EVENTS_RETENTION_JOB, pruneProcessedEvents } from './processed-events-retention';

describe('processed_events retention', () => {
  const db = useTestDataSource('retention-test', 3);

  it('deletes dedupe and status rows past the retention, keeps recent ones, and records a heartbeat', async () => {
    await db.dataSource.query(
      `INSERT INTO processed_events ("group", event_id, processed_at) SELECT 'ledger', 'old-' || n, now() - interval '3 days' FROM generate_series(1, 7) n`,
    );
    await db.dataSource.query(`INSERT INTO processed_events ("group", event_id) VALUES ('ledger', 'recent')`);
    await db.dataSource.query(
      `INSERT INTO consumer_event_status ("group", event_id, status, attempts, updated_at) VALUES ('ledger', 'old-1', 'processed', 2, now() - interval '3 days'), ('ledger', 'fresh', 'dead', 5, now())`,
    );

    expect(await pruneProcessedEvents(db.dataSource, 2 * 86_400, 3)).toEqual({
      ran: true,
      affected: 8,
      deleted: { processed_events: 7, consumer_event_status: 1 },
    });
    expect(await db.dataSource.query(`SELECT event_id FROM processed_events`)).toEqual([{ event_id: 'recent' }]);
    expect(await db.dataSource.query(`SELECT event_id FROM consumer_event_status`)).toEqual([{ event_id: 'fresh' }]);
    const [heartbeat] = await db.dataSource.query(`SELECT * FROM job_heartbeats WHERE name = $1`, [
      PROCESSED_EVENTS_RETENTION_JOB,
    ]);
    expect(heartbeat).toMatchObject({ name: PROCESSED_EVENTS_RETENTION_JOB });
  });

  it('skips while another process runs it', async () => {
    const holder = db.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock($1, $2)`, [
        JOB_LOCK_SPACE,
        jobLockKey(PROCESSED_EVENTS_RETENTION_JOB),
      ]);
      const result = await pruneProcessedEvents(db.dataSource, 60);
      await holder.query(`SELECT pg_advisory_unlock_all()`);
      expect(result).toEqual({ ran: false, reason: 'locked' });
    } finally {
      await holder.release();
    }
  });
});
