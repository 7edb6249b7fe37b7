import {
  compareCatalogues,
  CompatibilityMode,
  describeIncompatibility,
  readCatalogDirectory,
  revisionFile,
  revisionsOf,
  schemasOf,
  writeCatalogDirectory,
} from '@app/contracts';

export interface CatalogExport {
  /** False when the export refused: nothing was written. */
  ok: boolean;
  /** What to tell the person who ran it. */
  message: string;
  /** The files written, by path under the directory. */
  written: string[];
}

/**
 * Writes generated catalogue files into `directory` unless a published type changed incompatibly (in `mode`) with
 * any of its committed revisions: then nothing is written and the message names each type, field and direction. A
 * schema whose rules changed compatibly keeps its predecessor as `revisions/<type>/<n>.json`, so that the next
 * change is checked against it too.
 */
export function exportCatalog(
  directory: string,
  generated: Readonly<Record<string, string>>,
  mode: CompatibilityMode,
): CatalogExport {
  const committed = readCatalogDirectory(directory);
  const revisions = revisionsOf(committed);
  const comparison = compareCatalogues(revisions, schemasOf(generated), mode);
  if (comparison.incompatible.length > 0) {
    return {
      ok: false,
      written: [],
      message: `contracts:export: refused (${mode}), incompatible changes to published event types:\n${comparison.incompatible
        .map((incompatibility) => `  ${describeIncompatibility(incompatibility)}\n`)
        .join('')}`,
    };
  }
  const files: Record<string, string> = { ...generated };
  for (const type of comparison.revised)
    files[revisionFile(type, revisions[type].length)] = committed[`schemas/${type}.json`];
  const written = Object.keys(files).filter((name) => committed[name] !== files[name]);
  writeCatalogDirectory(directory, files);
  const types = Object.keys(schemasOf(files)).length;
  const news = [
    comparison.added.length ? `new: ${comparison.added.join(', ')}` : '',
    comparison.revised.length ? `new revision of: ${comparison.revised.join(', ')}` : '',
  ].filter(Boolean);
  return {
    ok: true,
    written,
    message:
      written.length === 0
        ? `contracts/ is up to date (${types} event types)\n`
        : `contracts/: wrote ${written.join(', ')} (${types} event types${news.length ? `; ${news.join('; ')}` : ''}); ` +
          'commit contracts/\n',
  };
}
