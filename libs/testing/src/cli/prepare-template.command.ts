// Run by the jest global setup, in its own process so that path aliases resolve as in the apps.
import 'reflect-metadata';
import { prepareTemplateDatabase } from '../test-database';

prepareTemplateDatabase().catch((error: Error) => {
  console.error(`test setup: could not prepare the template database: ${error.message}`);
  process.exit(1);
});
