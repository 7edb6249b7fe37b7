// npm run db:check — migrate a scratch database and fail when the entities want a different schema, or when a table
// the migrations create has no entity in the schema list (scripts/db/schema.ts).
import 'reflect-metadata';
import {
  connect,
  createDatabaseIfAbsent,
  DEFAULT_DATABASE_URL,
  findSchemaDrift,
  findUnmappedTables,
  migrate,
  withDatabase,
} from '@app/db';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { SCHEMA_ENTITIES } from './schema';

async function main(): Promise<number> {
  const scratch = withDatabase(
    process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    `hookrail_drift_${randomBytes(4).toString('hex')}`,
  );
  await createDatabaseIfAbsent(scratch);
  try {
    await migrate(scratch);
    const dataSource = await connect({
      url: scratch,
      applicationName: 'hookrail-db-check',
      poolSize: 1,
      entities: SCHEMA_ENTITIES,
    });
    const [drift, unmapped] = await Promise.all([findSchemaDrift(dataSource), findUnmappedTables(dataSource)]).finally(
      () => dataSource.destroy(),
    );
    if (drift.length === 0 && unmapped.length === 0) {
      console.log('db:check: entities and migrations agree');
      return 0;
    }
    if (unmapped.length) {
      console.error(`db:check: tables without an entity in scripts/db/schema.ts: ${unmapped.join(', ')}`);
    }
    if (drift.length) {
      console.error('db:check: entities and migrations disagree; a migration would need:');
      for (const statement of drift) console.error(`  ${statement};`);
    }
    return 1;
  } finally {
    const admin = new Client({ connectionString: withDatabase(scratch, 'postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(scratch).pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`db:check: failed: ${error.message}`);
    process.exit(1);
  },
);
