import 'reflect-metadata';
import { catalogFiles } from '@app/contracts';
import path from 'node:path';
import { CATALOG_COMPATIBILITY, CATALOG_DIRECTORY, catalogInput } from './catalog-input';
import { exportCatalog } from './export-catalog';

/**
 * `npm run contracts:export`: writes the event catalogue (a JSON Schema per event type and version, the AsyncAPI
 * document, the summary) into contracts/. Refuses, naming the type, field and direction, to replace a committed
 * schema with one that old or new readers could not read (FULL_TRANSITIVE): such a change is a new type version.
 */
function main(): number {
  const result = exportCatalog(
    path.resolve(__dirname, '../..', CATALOG_DIRECTORY),
    catalogFiles(catalogInput()),
    CATALOG_COMPATIBILITY,
  );
  (result.ok ? process.stdout : process.stderr).write(result.message);
  return result.ok ? 0 : 1;
}

process.exitCode = main();
