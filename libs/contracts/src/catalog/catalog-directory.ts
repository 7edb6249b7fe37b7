import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JsonSchema } from './json-schema';

const SCHEMAS = 'schemas';

/** The generated files found in a catalogue directory (`asyncapi.json`, `catalog.json`, `schemas/*.json`), by path. */
export function readCatalogDirectory(directory: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of ['asyncapi.json', 'catalog.json']) {
    const file = path.join(directory, name);
    if (existsSync(file)) files[name] = readFileSync(file, 'utf8');
  }
  const schemas = path.join(directory, SCHEMAS);
  if (existsSync(schemas)) {
    for (const name of readdirSync(schemas)
      .filter((entry) => entry.endsWith('.json'))
      .sort())
      files[`${SCHEMAS}/${name}`] = readFileSync(path.join(schemas, name), 'utf8');
  }
  return files;
}

export function writeCatalogDirectory(directory: string, files: Readonly<Record<string, string>>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(directory, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** The event schemas among catalogue files, by type (`schemas/<type>.json`). */
export function schemasOf(files: Readonly<Record<string, string>>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(files)
      .filter(([name]) => name.startsWith(`${SCHEMAS}/`))
      .map(([name, content]) => [name.slice(SCHEMAS.length + 1, -'.json'.length), JSON.parse(content) as JsonSchema]),
  );
}
