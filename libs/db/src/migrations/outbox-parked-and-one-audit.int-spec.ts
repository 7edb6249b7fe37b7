import { useTestDataSource } from '@app/testing';
import { OutboxParkedAndOneAudit1764640000001 } from './1764640000001-OutboxParkedAndOneAudit';

describe('migration: outbox parked_at and one operator audit', () => {
  const db = useTestDataSource('migration-one-audit');
  const migration = new OutboxParkedAndOneAudit1764640000001();

  async function run(step: 'up' | 'down'): Promise<void> {
    const runner = db.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await migration[step](runner);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
  }

  it('moves every dead-letter replay and purge into operator_audit, in order, and keeps a parked outbox row parked', async () => {
    const query = (sql: string, params?: unknown[]) => db.dataSource.query(sql, params);
    const [first, second] = ['0b7f3c1e-2a4d-4f6e-9c1a-1d2e3f4a5b6c', '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f'];
    // The schema as the previous release left it, with its rows.
    await run('down');
    await query(
      `INSERT INTO dead_letter_audit (at, actor, action, filter, count, dead_letter_ids) VALUES
         ('2026-11-30T10:00:00Z', 'cli:ada', 'replay', '{"group": "ledger"}', 1, $1::uuid[]),
         ('2026-11-30T11:00:00Z', 'admin:bob', 'purge', '{"ids": ["x"]}', 2, $2::uuid[])`,
      [[first], [first, second]],
    );
    await query(
      `INSERT INTO outbox (lane, event_id, topic, key, value, headers, failed_at, last_error)
       VALUES (0, '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b', 't', 'k', '{}', '{}', '2026-11-30T09:00:00Z', 'MESSAGE_TOO_LARGE')`,
    );

    await run('up');

    expect(
      await query(
        `SELECT at, actor, action, subject_id, details, count, affected_ids FROM operator_audit
          WHERE subject_type = 'dead-letters' ORDER BY id`,
      ),
    ).toEqual([
      {
        at: new Date('2026-11-30T10:00:00Z'),
        actor: 'cli:ada',
        action: 'replay',
        subject_id: 'ledger',
        details: { group: 'ledger' },
        count: 1,
        affected_ids: [first],
      },
      {
        at: new Date('2026-11-30T11:00:00Z'),
        actor: 'admin:bob',
        action: 'purge',
        subject_id: '*',
        details: { ids: ['x'] },
        count: 2,
        affected_ids: [first, second],
      },
    ]);
    expect(await query(`SELECT to_regclass('dead_letter_audit') AS audit`)).toEqual([{ audit: null }]);
    expect(
      await query(`SELECT parked_at, last_error FROM outbox WHERE event_id = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b'`),
    ).toEqual([{ parked_at: new Date('2026-11-30T09:00:00Z'), last_error: 'MESSAGE_TOO_LARGE' }]);
  });
});
