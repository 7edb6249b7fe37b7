import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CONSUMER_SERVICES } from '../../apps/consumers/src/consumer-services';
import { ConfigClassSource, ConfigVariable, readConfigClasses, variablesOf } from './config-classes.reader';
import { SECTIONS_OUTSIDE_CLASSES } from './variables-outside-classes';

/** Where the page goes, from the repository root. */
export const CONFIGURATION_PAGE = 'docs/configuration.md';
/** Where the variables of the development tools go (SECTIONS_OUTSIDE_CLASSES), a page of their own. */
export const DEVELOPMENT_CONFIGURATION_PAGE = 'docs/configuration-development.md';

/** A program that reads configuration classes: a section of the page. */
export interface ConfigReader {
  /** The section's heading. */
  title: string;
  /** Its name in the headings of the shared variables ("Ingress, relay and CLI"). */
  name: string;
  /** How it is started. */
  command: string;
  /** The classes it loads (`loadConfig(…)`), its own first. */
  classes: string[];
}

/** The consumer groups' own configuration classes (`env` in their definitions), in the registry's order. */
const GROUP_ENVS = Object.values(CONSUMER_SERVICES).flatMap(({ group, env }) =>
  env ? [{ group, name: env.name }] : [],
);

export const CONFIG_READERS: ConfigReader[] = [
  { title: 'Ingress', name: 'ingress', command: 'npm run start:ingress', classes: ['IngressEnv', 'TracingEnv'] },
  { title: 'Admin', name: 'admin', command: 'npm run start:admin', classes: ['AdminEnv'] },
  { title: 'Relay', name: 'relay', command: 'npm run start:relay', classes: ['RelayEnv', 'TracingEnv'] },
  {
    title: 'Consumers',
    name: 'consumers',
    command: 'npm run start:consumers',
    classes: ['ConsumersEnv', 'DeadLetterStoreEnv', 'TracingEnv', ...GROUP_ENVS.map(({ name }) => name)],
  },
  { title: 'CLI', name: 'CLI', command: 'npx hookrail', classes: ['CliEnv'] },
  {
    title: 'Topic creation and ACLs',
    name: 'topics:create, kafka:acls',
    command: 'npm run topics:create, npm run kafka:acls',
    classes: ['TopicsCreateEnv'],
  },
  {
    title: 'Benchmarks and tests',
    name: 'benchmarks',
    command: 'npm run bench:<name>, npm test',
    classes: ['KafkaEnv'],
  },
];

/** Headings of the tables of a section's variables that a class other than its own declares. */
export const CLASS_TITLES: Record<string, string> = {
  ...Object.fromEntries(GROUP_ENVS.map(({ group, name }) => [name, `Group \`${group}\``])),
  WebhookDeliveryEnv: 'Outbound webhook delivery',
  DeadLetterStoreEnv: 'Dead-letter store',
  TracingEnv: 'tracing',
};

const INTRO =
  'Every environment variable hookrail reads, its default and its meaning. Each app reads its environment once at ' +
  'start and names every missing or invalid variable in one line. This page is generated from the configuration ' +
  "classes (`*.env.ts`, each property's doc comment) by `npm run docs:config`: change a meaning or a default there, " +
  'then run it; a test fails while the two differ.';

const DEVELOPMENT_INTRO =
  'The variables of the development tools, which no configuration class reads: the development profile, the ' +
  "development servers, the test sender, the local Kafka and the chaos run. The apps' own variables: " +
  '[configuration.md](configuration.md). Generated with it by `npm run docs:config`.';

const TABLE_HEAD = ['| variable | default | meaning |', '|---|---|---|'];

/** A variable as one or more readers read it, and which readers. */
interface Row {
  variable: ConfigVariable;
  readers: ConfigReader[];
}

/** The pages `npm run docs:config` writes, by their path from the repository root, and what is wrong. */
export interface ConfigurationPages {
  /** docs/configuration.md. */
  markdown: string;
  /** Every page, docs/configuration.md first. */
  pages: Record<string, string>;
  problems: string[];
}

/**
 * docs/configuration.md, generated from the configuration classes, and docs/configuration-development.md, from the
 * variables read outside them; and the problems that make them wrong (each names the class or file to change); the
 * pages are written only without any.
 */
export function configurationPage(root: string): ConfigurationPages {
  const classes = readConfigClasses(root);
  const problems: string[] = [];
  const rows = new Map<string, Row>();
  for (const reader of CONFIG_READERS) {
    const seen = new Map<string, string>();
    for (const className of reader.classes) {
      const source = classes.get(className);
      if (!source) {
        problems.push(`${reader.title}: no *.env.ts file exports ${className}`);
        continue;
      }
      for (const variable of variablesOf(source.cls, classes)) {
        const twice = seen.get(variable.name);
        if (twice) problems.push(`${reader.title} reads ${variable.name} from both ${twice} and ${className}`);
        seen.set(variable.name, className);
        const key = `${variable.declaredBy.docs.name}.${variable.name}`;
        const row = rows.get(key);
        if (!row) rows.set(key, { variable, readers: [reader] });
        else if (!isDeepStrictEqual(row.variable.value, variable.value))
          problems.push(`${variable.name} of ${variable.declaredBy.docs.name} has another default in ${className}`);
        else row.readers.push(reader);
      }
    }
  }
  problems.push(...variableProblems([...rows.values()].map((row) => row.variable)));
  problems.push(...unreadClasses(classes));
  problems.push(...outsideProblems(new Set([...rows.values()].map((row) => row.variable.name))));

  const all = [...rows.values()];
  const shared = all.filter((row) => row.readers.length > 1);
  const lines = ['# Configuration', '', INTRO, ''];
  lines.push(
    '## Shared variables',
    '',
    'Declared once and read by several programs, with one default and meaning.',
    '',
  );
  // A titled class's shared variables get a table of their own: `### Ingress, relay and consumers: tracing`.
  const titleOf = (row: Row) => CLASS_TITLES[row.variable.declaredBy.docs.name];
  const byReaders = groupBy(shared, (row) => `${row.readers.map((reader) => reader.name).join(', ')}|${titleOf(row)}`);
  for (const group of byReaders.sort((a, b) => b[0].readers.length - a[0].readers.length)) {
    const title = titleOf(group[0]);
    lines.push(
      `### ${capitalised(list(group[0].readers.map((reader) => reader.name)))}${title ? `: ${title}` : ''}`,
      '',
    );
    lines.push(...table(group));
  }
  for (const reader of CONFIG_READERS) {
    const own = all.filter((row) => row.readers.length === 1 && row.readers[0] === reader);
    const readsShared = shared.some((row) => row.readers.includes(reader));
    lines.push(`## ${reader.title}`, '');
    lines.push(`Read by \`${reader.command}\`${readsShared ? ', besides the shared variables above' : ''}.`, '');
    groupBy(own, (row) => row.variable.declaredBy.docs.name).forEach((group, index) => {
      const className = group[0].variable.declaredBy.docs.name;
      if (index > 0) {
        const title = CLASS_TITLES[className];
        if (!title) problems.push(`${reader.title} reads variables of ${className}: give it a title in CLASS_TITLES`);
        lines.push(`### ${title ?? className}`, '');
      }
      lines.push(...table(group));
    });
  }
  lines.push(
    '## Development tools',
    '',
    `The development profile, servers and tools read variables of their own: [${path.basename(DEVELOPMENT_CONFIGURATION_PAGE)}](${path.basename(DEVELOPMENT_CONFIGURATION_PAGE)}).`,
    '',
  );
  const development = ['# Configuration of the development tools', '', DEVELOPMENT_INTRO, ''];
  for (const section of SECTIONS_OUTSIDE_CLASSES) {
    development.push(`## ${section.title}`, '', section.intro, '', ...TABLE_HEAD);
    for (const variable of section.variables)
      development.push(`| \`${variable.name}\` | ${variable.default} | ${cell(variable.meaning)} |`);
    development.push('');
  }
  const markdown = lines.join('\n');
  const pages = { [CONFIGURATION_PAGE]: markdown, [DEVELOPMENT_CONFIGURATION_PAGE]: development.join('\n') };
  return { markdown, pages, problems };
}

/** A table of variables that one class declares (or several, for shared ones), with where to change them. */
function table(rows: Row[]): string[] {
  const files = [...new Set(rows.map((row) => row.variable.declaredBy))].map(
    (source) => `\`${source.docs.name}\` ([${source.file}](../${source.file}))`,
  );
  return [
    `From ${list(files)}.`,
    '',
    ...TABLE_HEAD,
    ...rows.map(({ variable }) => `| \`${variable.name}\` | ${defaultOf(variable)} | ${meaningOf(variable)} |`),
    '',
  ];
}

/** The value a class holds, as one would set it; or its `@default`; or `required` or `none`. */
function defaultOf(variable: ConfigVariable): string {
  if (variable.defaultTag !== undefined) return cell(variable.defaultTag);
  const value = variable.value;
  if (value === undefined) return variable.required ? 'required' : 'none';
  const text = Array.isArray(value) ? value.join(',') : String(value);
  return text === '' ? 'empty' : `\`${text}\``;
}

/** The doc comment, then the bounds class-validator checks (but a lone minimum of 0, which says little). */
function meaningOf(variable: ConfigVariable): string {
  const max = variable.max;
  const min = variable.min === 0 && max === undefined ? undefined : variable.min;
  const bounds =
    min !== undefined && max !== undefined
      ? ` From ${min} to ${max}.`
      : min !== undefined
        ? ` At least ${min}.`
        : max !== undefined
          ? ` At most ${max}.`
          : '';
  return cell(`${variable.meaning ?? ''}${bounds}`);
}

/** One line of a table cell: paragraphs run on, `|` escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').replace(/\|/g, '\\|');
}

function variableProblems(variables: ConfigVariable[]): string[] {
  return variables.flatMap(({ name, declaredBy: { docs, file }, meaning, defaultTag, value }) => [
    ...(meaning ? [] : [`${name} has no meaning: give it a doc comment in ${docs.name} (${file})`]),
    ...(defaultTag !== undefined && value !== undefined
      ? [`${name} has both a default in ${docs.name} (${file}) and a @default tag: keep the class's`]
      : []),
    ...(defaultTag === '' ? [`${name}'s @default tag in ${docs.name} (${file}) is empty`] : []),
  ]);
}

/** Classes of *.env.ts files that no section reads, not even as an ancestor: their variables would be left out. */
function unreadClasses(classes: Map<string, ConfigClassSource>): string[] {
  const read = CONFIG_READERS.flatMap((reader) => reader.classes.flatMap((name) => classes.get(name)?.cls ?? []));
  return [...classes.values()]
    .filter((source) => !read.some((cls) => cls === source.cls || source.cls.isPrototypeOf(cls)))
    .map((source) => `${source.docs.name} (${source.file}) is read by no program of CONFIG_READERS`);
}

function outsideProblems(readByClasses: Set<string>): string[] {
  const names = SECTIONS_OUTSIDE_CLASSES.flatMap((section) => section.variables.map((variable) => variable.name));
  return [
    ...names.filter((name, index) => names.indexOf(name) !== index).map((name) => `${name} is listed twice`),
    ...names
      .filter((name) => readByClasses.has(name))
      .map(
        (name) =>
          `${name} is read by a configuration class: its doc comment documents it, not SECTIONS_OUTSIDE_CLASSES`,
      ),
  ];
}

/** Consecutive groups by key, in the order of each key's first row. */
function groupBy<T>(items: T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups.values()];
}

function list(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
