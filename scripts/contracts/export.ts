import 'reflect-metadata';
import {
  catalogFiles,
  compareCatalogues,
  describeIncompatibility,
  readCatalogDirectory,
  schemasOf,
  writeCatalogDirectory,
} from '@app/contracts';
import path from 'node:path';
import { CATALOG_DIRECTORY, catalogInput } from './catalog-input';

/**
 * `npm run contracts:export`: writes the event catalogue (a JSON Schema per event type and version, the AsyncAPI
 * document, the summary) into contracts/. Refuses, naming the type and field, to overwrite a committed schema with
 * an incompatible one: such a change is a new type version.
 */
function main(): number {
  const directory = path.resolve(__dirname, '../..', CATALOG_DIRECTORY);
  const committed = readCatalogDirectory(directory);
  const files = catalogFiles(catalogInput());
  const comparison = compareCatalogues(schemasOf(committed), schemasOf(files));
  if (comparison.incompatible.length > 0) {
    process.stderr.write(
      `contracts:export: refused, incompatible changes to published event types:\n${comparison.incompatible
        .map((incompatibility) => `  ${describeIncompatibility(incompatibility)}\n`)
        .join('')}`,
    );
    return 1;
  }
  const written = Object.keys(files).filter((name) => committed[name] !== files[name]);
  writeCatalogDirectory(directory, files);
  const types = Object.keys(schemasOf(files)).length;
  process.stdout.write(
    written.length === 0
      ? `contracts/ is up to date (${types} event types)\n`
      : `contracts/: wrote ${written.join(', ')} (${types} event types${
          comparison.added.length ? `; new: ${comparison.added.join(', ')}` : ''
        }); commit contracts/\n`,
  );
  return 0;
}

process.exitCode = main();
