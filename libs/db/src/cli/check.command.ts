// npm run db:check — migrate a scratch database and fail when the entities want a different schema.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { connect } from '../data-source';
import { DEFAULT_DATABASE_URL, withDatabase } from '../database-url';
import { createDatabaseIfAbsent, migrate } from '../migrate';
import { findSchemaDrift } from '../schema-drift';

async function main(): Promise<number> {
  const scratch = withDatabase(
    process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    `hookrail_drift_${randomBytes(4).toString('hex')}`,
  );
  await createDatabaseIfAbsent(scratch);
  try {
    await migrate(scratch);
    const dataSource = await connect({ url: scratch, applicationName: 'hookrail-db-check', poolSize: 1 });
    const drift = await findSchemaDrift(dataSource).finally(() => dataSource.destroy());
    if (drift.length === 0) {
      console.log('db:check: entities and migrations agree');
      return 0;
    }
    console.error('db:check: entities and migrations disagree; a migration would need:');
    for (const statement of drift) console.error(`  ${statement};`);
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
