import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CONFIG_READERS,
  CONFIGURATION_PAGE,
  configurationPage,
  DEVELOPMENT_CONFIGURATION_PAGE,
} from '../../scripts/docs/configuration.page';
import { SECTIONS_OUTSIDE_CLASSES } from '../../scripts/docs/variables-outside-classes';
import { markdownDocuments } from './markdown';

/**
 * docs/configuration.md is generated from the configuration classes (`*.env.ts`: each property's doc comment and
 * default), docs/configuration-development.md from the few variables read outside them: the committed pages are what
 * `npm run docs:config` writes today, every variable has a meaning, every class an app loads is on the page, and no
 * other document keeps a table of its own.
 */
const root = path.resolve(__dirname, '../..');
const TABLE_HEADER = '| variable | default | meaning |';

const codeFiles = ['apps', 'libs', 'scripts']
  .flatMap((dir) => (readdirSync(path.join(root, dir), { recursive: true }) as string[]).map((f) => path.join(dir, f)))
  .filter((file) => file.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(file));

/** The documents that may point to the pages: the README and every Markdown page under docs/ but those two. */
const documents = markdownDocuments(root).filter(
  (file) => file !== CONFIGURATION_PAGE && file !== DEVELOPMENT_CONFIGURATION_PAGE,
);

/** A file of the repository, by its path from the root. */
function read(file: string): string {
  return readFileSync(path.join(root, file), 'utf8');
}

/** `process.env.NAME`, `env.NAME` or a `'NAME'` looked up in TypeScript; `${NAME` in a shell script. */
function readsVariable(source: string, name: string): boolean {
  return new RegExp(`(?:\\benv\\.|\\$\\{|')${name}\\b`).test(source);
}

describe('the configuration reference (docs/configuration.md)', () => {
  const { markdown, pages, problems } = configurationPage(root);

  it.each([CONFIGURATION_PAGE, DEVELOPMENT_CONFIGURATION_PAGE])('%s is what npm run docs:config generates', (page) => {
    const markdown = pages[page];
    expect(markdown).toBeDefined();
    const committed = existsSync(path.join(root, page)) ? read(page) : '';
    if (committed === markdown) return;
    const generated = markdown.split('\n');
    const lines = committed.split('\n');
    const at = generated.findIndex((line, index) => line !== lines[index]);
    const line = at === -1 ? generated.length : at;
    throw new Error(
      `${page} differs from what the configuration classes generate: run npm run docs:config ` +
        `(first difference at line ${line + 1}:\n  committed: ${lines[line] ?? '(end of file)'}\n` +
        `  generated: ${generated[line] ?? '(end of file)'})`,
    );
  });

  it('gives every variable a configuration class reads a meaning, and reads every class', () => {
    expect(problems).toEqual([]);
    expect(markdown).toContain(TABLE_HEADER);
  });

  it('has a section for every configuration class that a program loads', () => {
    const loaded = codeFiles.flatMap((file) =>
      [...read(file).matchAll(/loadConfig\(\s*([A-Z]\w*)/g)].map((match) => match[1]),
    );
    const onThePage = new Set(CONFIG_READERS.flatMap((reader) => reader.classes));
    expect(loaded.length).toBeGreaterThan(0);
    expect(
      [...new Set(loaded)]
        .filter((name) => !onThePage.has(name))
        .map(
          (name) => `${name} is loaded but read by no program of CONFIG_READERS (scripts/docs/configuration.page.ts)`,
        ),
    ).toEqual([]);
  });

  it('lists variables read outside the classes only while their file reads them', () => {
    const stale = SECTIONS_OUTSIDE_CLASSES.flatMap((section) => section.variables)
      .filter(({ name, readBy }) => !existsSync(path.join(root, readBy)) || !readsVariable(read(readBy), name))
      .map(({ name, readBy }) =>
        existsSync(path.join(root, readBy)) ? `${readBy} no longer reads ${name}` : `${name}: ${readBy} does not exist`,
      );
    expect(stale).toEqual([]);
  });

  it('gives every variable that the files of its hand-written sections read', () => {
    const files = new Set(
      SECTIONS_OUTSIDE_CLASSES.flatMap((section) => section.variables.map((variable) => variable.readBy)),
    );
    const missing = [...files]
      .filter((file) => file.endsWith('.ts') && existsSync(path.join(root, file)))
      .flatMap((file) =>
        [...read(file).matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)]
          .map((match) => match[1])
          .filter((name) => !Object.values(pages).some((page) => page.includes(`| \`${name}\` |`)))
          .map((name) => `${file} reads ${name}, which neither configuration page gives`),
      );
    expect([...new Set(missing)]).toEqual([]);
  });

  it('is the only document with a table of variables', () => {
    const tables = documents.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) =>
          line.trim().replace(/\s+/g, ' ') === TABLE_HEADER
            ? [`${file}:${index + 1} has its own "${TABLE_HEADER}" table: link to ${CONFIGURATION_PAGE} instead`]
            : [],
        ),
    );
    expect(tables).toEqual([]);
  });
});
