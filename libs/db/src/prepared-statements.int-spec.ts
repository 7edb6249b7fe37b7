import { useTestDataSource } from '@app/testing';
import { poolQuery, preparedQuery } from './pool-query';
import { statementName } from './statement-name';

const preparedNames = `SELECT name FROM pg_prepared_statements ORDER BY name`;

describe('prepared hot statements', () => {
  const test = useTestDataSource('prepared-statements-test', 1);

  it('names a statement by its text: the same text the same name, another text another one, within 63 bytes', () => {
    const sql = `SELECT $1::int AS n`;
    expect(statementName(sql)).toBe(statementName(`${sql}`));
    expect(statementName(sql)).not.toBe(statementName(`SELECT $1::int AS m`));
    expect(Buffer.byteLength(statementName(sql))).toBeLessThanOrEqual(63);
  });

  it('poolQuery prepares its statement once on the connection and reuses it', async () => {
    const sql = `SELECT $1::int + 1 AS n`;
    expect(await poolQuery(test.dataSource, sql, [1])).toEqual([{ n: 2 }]);
    expect(await poolQuery(test.dataSource, sql, [41])).toEqual([{ n: 42 }]);
    const names = (await poolQuery<{ name: string }>(test.dataSource, preparedNames, [])).map((row) => row.name);
    expect(names.filter((name) => name === statementName(sql))).toHaveLength(1);
  });

  it('preparedQuery prepares on the transaction connection and its rows roll back with it', async () => {
    const sql = `INSERT INTO job_heartbeats (name, last_started_at, last_finished_at, last_duration_ms, last_affected)
                 VALUES ($1, now(), now(), 0, 0) RETURNING name`;
    await test.dataSource
      .transaction(async (manager) => {
        expect(await preparedQuery(manager, sql, ['prepared-test'])).toEqual([{ name: 'prepared-test' }]);
        const names = (await manager.query(preparedNames)).map((row: { name: string }) => row.name);
        expect(names).toContain(statementName(sql));
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await test.dataSource.query(`SELECT name FROM job_heartbeats WHERE name = 'prepared-test'`)).toEqual([]);
  });
});
