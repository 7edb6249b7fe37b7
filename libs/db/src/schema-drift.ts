import { DataSource } from 'typeorm';

/**
 * The statements TypeORM would run to make the database match the entities. Empty means the migrations and the
 * entities agree; anything else is drift, and `npm run db:check` fails on it.
 */
export async function findSchemaDrift(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((query) => query.query);
}
