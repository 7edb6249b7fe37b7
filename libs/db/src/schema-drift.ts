import { DataSource } from 'typeorm';

/**
 * The statements TypeORM would run to make the database match the entities. Empty means the migrations and the
 * entities agree; anything else is drift, and `npm run db:check` fails on it.
 */
export async function findSchemaDrift(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((query) => query.query);
}

/**
 * Tables of the database that no entity of this DataSource maps (the migrations table aside). TypeORM compares only
 * the tables it has entities for, so a table missing from the entity list would escape the drift check unseen.
 */
export async function findUnmappedTables(dataSource: DataSource): Promise<string[]> {
  const mapped = new Set(dataSource.entityMetadatas.map((metadata) => metadata.tableName));
  const migrationsTable = dataSource.options.migrationsTableName ?? 'migrations';
  const rows: Array<{ table_name: string }> = await dataSource.query(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  return rows.map((row) => row.table_name).filter((table) => table !== migrationsTable && !mapped.has(table));
}
