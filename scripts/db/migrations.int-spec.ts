import { connect, findSchemaDrift, findUnmappedTables, migrate, MIGRATIONS } from '@app/db';
import { createEmptyDatabase, TestDatabase } from '@app/testing';
import { SCHEMA_ENTITIES } from './schema';

describe('migrations', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createEmptyDatabase();
  });

  afterAll(() => database.drop());

  it('build the whole schema on an empty database, agree with the entities, and are idempotent', async () => {
    const ran = await migrate(database.url);
    expect(ran).toHaveLength(MIGRATIONS.length);

    const dataSource = await connect({
      url: database.url,
      applicationName: 'migrations-test',
      poolSize: 1,
      entities: SCHEMA_ENTITIES,
    });
    try {
      const tables = await dataSource.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
      );
      expect(tables.map((row: { table_name: string }) => row.table_name)).toEqual(
        expect.arrayContaining(['inbound_events', 'outbox']),
      );
      expect(await findSchemaDrift(dataSource)).toEqual([]);
      expect(await findUnmappedTables(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }

    expect(await migrate(database.url)).toEqual([]);
  });
});
