// Run by the jest global setup and teardown in their own process, so that path aliases resolve as in the apps.
//   prepare-template.command.ts prepare <run>   migrate this run's template (and drop databases of dead runs)
//   prepare-template.command.ts drop <run>      drop every database of this run
import 'reflect-metadata';
import { dropTestDatabases, prepareTemplateDatabase } from '../test-database';

const [action, run] = process.argv.slice(2);
const work = action === 'drop' ? dropTestDatabases({ run }) : prepareTemplateDatabase(run);
work.catch((error: Error) => {
  console.error(`test setup: ${action} test databases failed: ${error.message}`);
  process.exit(1);
});
