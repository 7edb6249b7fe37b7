import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JsonSchema } from './json-schema';

const SCHEMAS = 'schemas';
const REVISIONS = 'revisions';

/**
 * The files found in a catalogue directory, by path: the generated ones (`asyncapi.json`, `catalog.json`,
 * `schemas/<type>.json`) and the earlier revisions of each type's schema the export kept (`revisions/<type>/<n>.json`).
 */
export function readCatalogDirectory(directory: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of ['asyncapi.json', 'catalog.json']) {
    const file = path.join(directory, name);
    if (existsSync(file)) files[name] = readFileSync(file, 'utf8');
  }
  for (const name of jsonFiles(path.join(directory, SCHEMAS)))
    files[`${SCHEMAS}/${name}`] = readFileSync(path.join(directory, SCHEMAS, name), 'utf8');
  const revisions = path.join(directory, REVISIONS);
  if (existsSync(revisions)) {
    for (const type of readdirSync(revisions).sort())
      for (const name of jsonFiles(path.join(revisions, type)))
        files[`${REVISIONS}/${type}/${name}`] = readFileSync(path.join(revisions, type, name), 'utf8');
  }
  return files;
}

function jsonFiles(directory: string): string[] {
  return existsSync(directory)
    ? readdirSync(directory)
        .filter((entry) => entry.endsWith('.json'))
        .sort()
    : [];
}

export function writeCatalogDirectory(directory: string, files: Readonly<Record<string, string>>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(directory, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** The current event schemas among catalogue files, by type (`schemas/<type>.json`). */
export function schemasOf(files: Readonly<Record<string, string>>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(files)
      .filter(([name]) => name.startsWith(`${SCHEMAS}/`))
      .map(([name, content]) => [name.slice(SCHEMAS.length + 1, -'.json'.length), JSON.parse(content) as JsonSchema]),
  );
}

/** Where the export keeps revision `n` (1 is the first one committed) of a type's schema once it is replaced. */
export function revisionFile(type: string, revision: number): string {
  return `${REVISIONS}/${type}/${revision}.json`;
}

/**
 * Every committed revision of each type's schema, oldest first, the current one (`schemas/<type>.json`) last: what
 * a published type must stay compatible with.
 */
export function revisionsOf(files: Readonly<Record<string, string>>): Record<string, JsonSchema[]> {
  const revisions: Record<string, Array<{ revision: number; schema: JsonSchema }>> = {};
  for (const [name, content] of Object.entries(files)) {
    const match = new RegExp(`^${REVISIONS}/([^/]+)/(\\d+)\\.json$`).exec(name);
    if (match) (revisions[match[1]] ??= []).push({ revision: Number(match[2]), schema: JSON.parse(content) });
  }
  const current = schemasOf(files);
  const types = new Set([...Object.keys(revisions), ...Object.keys(current)]);
  return Object.fromEntries(
    [...types].sort().map((type) => [
      type,
      [
        ...(revisions[type] ?? []).sort((a, b) => a.revision - b.revision).map(({ schema }) => schema),
        ...(current[type] ? [current[type]] : []),
      ],
    ]),
  );
}
