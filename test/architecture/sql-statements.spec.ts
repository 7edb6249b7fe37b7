import { DYNAMIC, entityTables, tableStatements } from './sql-statements';

const TABLES = new Set(['outbox', 'sagas', 'stock', 'webhook_endpoints', 'processed_events']);
const ENTITIES = new Map([['OutboxMessageEntity', 'outbox']]);
const found = (source: string) =>
  tableStatements('x.ts', source, TABLES, ENTITIES).map(({ line, table, access, text }) => ({
    line,
    table,
    access,
    text,
  }));

describe('the SQL statements a file runs on which tables', () => {
  it('finds each clause that names a table, quoted or with its schema, on its own line', () => {
    expect(
      found(`await db.query(\`SELECT s.id FROM sagas s
        JOIN "outbox" o ON o.id = s.id\`);
      await db.query('DELETE FROM public.processed_events WHERE "group" = $1');
      await db.query(\`INSERT INTO stock (sku) VALUES ($1)\`);
      await db.query('TRUNCATE outbox');`),
    ).toEqual([
      { line: 1, table: 'sagas', access: 'read', text: 'FROM sagas' },
      { line: 2, table: 'outbox', access: 'read', text: 'JOIN "outbox"' },
      { line: 3, table: 'processed_events', access: 'write', text: 'DELETE FROM processed_events' },
      { line: 4, table: 'stock', access: 'write', text: 'INSERT INTO stock' },
      { line: 5, table: 'outbox', access: 'write', text: 'TRUNCATE outbox' },
    ]);
  });

  it('finds a table after a comma in a FROM list, and an UPDATE … FROM', () => {
    expect(
      found(`q(\`UPDATE sagas d SET x = 1
         FROM unnest($1::bigint[]) AS u(id, token), webhook_endpoints e
        WHERE d.id = u.id\`)`),
    ).toEqual([
      { line: 1, table: 'sagas', access: 'write', text: 'UPDATE sagas' },
      { line: 2, table: 'webhook_endpoints', access: 'read', text: 'FROM …, webhook_endpoints' },
    ]);
  });

  it('reads lowercase keywords in a literal that begins like a statement, and not in prose or comments', () => {
    expect(found(`q('select 1 from outbox'); // DELETE FROM sagas`)).toEqual([
      { line: 1, table: 'outbox', access: 'read', text: 'FROM outbox' },
    ]);
    expect(found(`new Gauge({ help: 'Sagas by state (read from sagas at scrape time)' });`)).toEqual([]);
    expect(found(`/** INSERT INTO outbox in one statement */ const sagas = 'FROM x';`)).toEqual([]);
  });

  it('reports a clause that names its table through an expression', () => {
    expect(found('q(`SELECT 1 FROM ${table} WHERE id = $1`)')).toEqual([
      { line: 1, table: DYNAMIC, access: 'read', text: 'FROM ${}' },
    ]);
  });

  it("finds TypeORM's entity methods given an entity class, and maps entity files to tables", () => {
    expect(found('manager.getRepository(OutboxMessageEntity); manager.find(OtherEntity);')).toEqual([
      { line: 1, table: 'outbox', access: 'write', text: 'getRepository(OutboxMessageEntity)' },
    ]);
    expect(found('await manager.count(OutboxMessageEntity, { where: {} });')).toEqual([
      { line: 1, table: 'outbox', access: 'read', text: 'count(OutboxMessageEntity)' },
    ]);
    expect([...entityTables(`@Entity('outbox')\n@Index('ix', ['lane'])\nexport class OutboxMessageEntity {}`)]).toEqual(
      [['OutboxMessageEntity', 'outbox']],
    );
  });
});
