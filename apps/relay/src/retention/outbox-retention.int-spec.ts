import { createPool, managerRows } from '@app/db';
import { JobHeartbeatRepository } from '@app/jobs';
import { lockRows, useTestDataSource, waitForJobLock } from '@app/testing';
import { Pool } from 'pg';
import { OUTBOX_RETENTION_JOB, pruneOutbox } from './outbox-retention';

describe('outbox retention', () => {
  const db = useTestDataSource('retention-test');
  let pool: Pool;

  beforeAll(() => {
    // The first run waits on a row lock the test holds: on a busy machine that may take longer than the default
    // statement timeout.
    pool = createPool(
      { url: db.database.url, applicationName: 'retention-test', statementTimeoutMs: 120_000 },
      () => undefined,
    );
  });
  afterAll(() => pool.end());

  /** Rows published `ageSeconds` ago (null: not published). */
  async function seed(count: number, ageSeconds: number | null): Promise<void> {
    await db.dataSource.query(
      `INSERT INTO outbox (lane, event_id, topic, key, value, headers, published_at)
       SELECT 0, gen_random_uuid(), 't', 'k', '{}', '{}', CASE WHEN $2::int IS NULL THEN NULL ELSE now() - make_interval(secs => $2::int) END
         FROM generate_series(1, $1)`,
      [count, ageSeconds],
    );
  }

  const countRows = async (where: string): Promise<number> =>
    (await db.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE ${where}`))[0].n;

  it('deletes only published rows older than the window, in batches; a concurrent run skips; a heartbeat is recorded', async () => {
    await seed(25, 7200); // published two hours ago: expired
    await seed(10, 60); // published a minute ago: kept
    await seed(5, null); // unpublished: kept whatever its age
    await db.dataSource.query(`UPDATE outbox SET created_at = now() - interval '1 day' WHERE published_at IS NULL`);

    // Hold a row lock on one expired row, so that the first run is still deleting when the second one starts.
    const blocker = await lockRows(
      db.database.url,
      `SELECT id FROM outbox WHERE published_at < now() - interval '1 hour' ORDER BY published_at DESC LIMIT 1 FOR UPDATE`,
    );

    const settings = { retentionSeconds: 3600, batchSize: 10 };
    const first = pruneOutbox(pool, settings);
    await waitForJobLock(db.dataSource);
    const second = await pruneOutbox(pool, settings);
    expect(second).toEqual({ ran: false, reason: 'locked' });

    await blocker.commit();
    expect(await first).toEqual({ ran: true, affected: 25 });

    expect(await countRows(`published_at < now() - interval '1 hour'`)).toBe(0);
    expect(await countRows(`published_at IS NOT NULL`)).toBe(10);
    expect(await countRows(`published_at IS NULL`)).toBe(5);
    const heartbeat = await new JobHeartbeatRepository(managerRows(db.dataSource.manager)).find(OUTBOX_RETENTION_JOB);
    expect(heartbeat).toMatchObject({ lastAffected: '25', lastError: null });
    expect(heartbeat?.lastSucceededAt).toBeInstanceOf(Date);
  });
});
