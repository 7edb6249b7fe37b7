// npm run db:migrate — create the database if absent, then run pending migrations.
import 'reflect-metadata';
import { createDatabaseIfAbsent, migrate } from '../migrate';
import { DEFAULT_DATABASE_URL, redactUrl } from '../database-url';
import { explainPostgresError } from '../postgres-refusals';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (await createDatabaseIfAbsent(url)) console.log(`db:migrate: created database ${redactUrl(url)}`);
  const ran = await migrate(url);
  console.log(ran.length ? `db:migrate: ran ${ran.join(', ')}` : 'db:migrate: schema is up to date');
}

main().catch((error: Error) => {
  const refused = explainPostgresError(error, process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  console.error(refused ? `db:migrate: ${refused}` : `db:migrate: failed: ${error.message}`);
  process.exit(1);
});
