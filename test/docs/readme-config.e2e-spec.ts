import { getMetadataStorage } from 'class-validator';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The README's configuration tables and the configuration classes cannot drift apart: every variable a class in a
 * `*.env.ts` file reads has a row in some README table headed `| variable | default | meaning |`, and every such row
 * names a variable some class reads, or one of the few read outside a configuration class (below).
 */
const root = path.resolve(__dirname, '../..');
const TABLE_HEADER = '| variable | default | meaning |';

/**
 * Variables the README documents that no configuration class reads: the development providers' own settings, the
 * local broker script's and the chaos run's.
 */
const READ_OUTSIDE_CONFIG_CLASSES: Record<string, string> = {
  EMAIL_PROVIDER_PORT: 'apps/consumers/src/notifier/dev-provider/main.ts',
  EMAIL_PROVIDER_HOST: 'apps/consumers/src/notifier/dev-provider/main.ts',
  EMAIL_PROVIDER_LATENCY_MS: 'apps/consumers/src/notifier/dev-provider/main.ts',
  MODEL_PORT: 'apps/consumers/src/agent/dev-model/main.ts',
  MODEL_HOST: 'apps/consumers/src/agent/dev-model/main.ts',
  MODEL_LATENCY_MS: 'apps/consumers/src/agent/dev-model/main.ts',
  MODEL_FAILURE_RATE: 'apps/consumers/src/agent/dev-model/main.ts',
  WEBHOOK_RECEIVER_PORT: 'apps/consumers/src/webhooks/dev-receiver/main.ts',
  WEBHOOK_RECEIVER_HOST: 'apps/consumers/src/webhooks/dev-receiver/main.ts',
  WEBHOOK_RECEIVER_LATENCY_MS: 'apps/consumers/src/webhooks/dev-receiver/main.ts',
  WEBHOOK_RECEIVER_FAILURE_RATE: 'apps/consumers/src/webhooks/dev-receiver/main.ts',
  KAFKA_NODES: 'scripts/kafka/kafka.sh',
  KAFKA_CLUSTER_PORT: 'scripts/kafka/kafka.sh',
  KAFKA_CLUSTER_CONTROLLER_PORT: 'scripts/kafka/kafka.sh',
  KAFKA_CLUSTER_STATE_DIR: 'scripts/kafka/kafka.sh',
  KAFKA_HEAP: 'scripts/kafka/kafka.sh',
  CHAOS_SEED: 'test/chaos/chaos-config.ts',
  CHAOS_SECONDS: 'test/chaos/chaos-config.ts',
  CHAOS_RATE: 'test/chaos/chaos-config.ts',
  CHAOS_DRAIN_SECONDS: 'test/chaos/chaos-config.ts',
  CHAOS_BUILD: 'test/chaos/chaos-config.ts',
  CHAOS_PG_URL: 'test/chaos/chaos-config.ts',
};

/** `process.env.NAME`, `env.NAME` or a `'NAME'` looked up in TypeScript; `${NAME` in a shell script. */
function readsVariable(source: string, name: string): boolean {
  return new RegExp(`(?:\\benv\\.|\\$\\{|')${name}\\b`).test(source);
}

type Class = new () => object;

function sourceFiles(dir: string): string[] {
  return (readdirSync(path.join(root, dir), { recursive: true }) as string[])
    .filter((file) => !file.split(path.sep).includes('node_modules') && /\.ts$/.test(file))
    .map((file) => path.join(dir, file));
}

const codeFiles = ['apps', 'libs', 'scripts'].flatMap(sourceFiles).filter((file) => !/\.(int-)?spec\.ts$/.test(file));

/** Every class exported by a `*.env.ts` file, with the file it lives in. */
function configClasses(): Array<{ cls: Class; file: string }> {
  return codeFiles
    .filter((file) => file.endsWith('.env.ts'))
    .flatMap((file) =>
      Object.values(require(path.join(root, file)) as Record<string, unknown>)
        .filter((value): value is Class => typeof value === 'function' && /^class\s/.test(value.toString()))
        .map((cls) => ({ cls, file })),
    );
}

/** The variables a class reads: its validated properties (inherited ones too) and the ones with a default. */
function variablesOf(cls: Class): string[] {
  const validated = getMetadataStorage()
    .getTargetValidationMetadatas(cls, '', false, false)
    .map((metadata) => metadata.propertyName);
  return [...new Set([...validated, ...Object.keys(new cls())])];
}

/** The rows of every README table headed `| variable | default | meaning |`: the variables named in the first cell. */
function readmeRows(): Array<{ line: number; names: string[]; text: string }> {
  const lines = readFileSync(path.join(root, 'README.md'), 'utf8').split('\n');
  const rows: Array<{ line: number; names: string[]; text: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim().replace(/\s+/g, ' ') !== TABLE_HEADER) continue;
    for (i += 2; i < lines.length && lines[i].trim().startsWith('|'); i++) {
      const firstCell = lines[i]
        .trim()
        .slice(1)
        .split(/(?<!\\)\|/)[0];
      const names = [...firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]);
      rows.push({ line: i + 1, names, text: lines[i].trim() });
    }
  }
  return rows;
}

describe('README configuration tables', () => {
  const classes = configClasses();
  const readBy = new Map<string, string[]>();
  for (const { cls, file } of classes)
    for (const name of variablesOf(cls)) readBy.set(name, [...(readBy.get(name) ?? []), `${cls.name} (${file})`]);
  const rows = readmeRows();
  const documented = new Set(rows.flatMap((row) => row.names));

  it('finds the configuration classes that the apps load, and the README tables', () => {
    const loaded = codeFiles.flatMap((file) =>
      [...readFileSync(path.join(root, file), 'utf8').matchAll(/loadConfig\(\s*([A-Z]\w*)/g)].map((match) => match[1]),
    );
    const found = new Set(classes.map(({ cls }) => cls.name));
    expect(loaded.length).toBeGreaterThan(0);
    expect(
      [...new Set(loaded)].filter((name) => !found.has(name)).map((name) => `${name} is not in a *.env.ts file`),
    ).toEqual([]);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('documents every variable a configuration class reads', () => {
    const missing = [...readBy.entries()]
      .filter(([name]) => !documented.has(name))
      .map(
        ([name, readers]) => `${name} (read by ${readers.join(', ')}) has no row in a README "${TABLE_HEADER}" table`,
      );
    expect(missing).toEqual([]);
  });

  it('documents only variables that something reads', () => {
    const unread = rows.flatMap((row) =>
      row.names.length === 0
        ? [`README.md:${row.line} names no variable in backticks: ${row.text}`]
        : row.names
            .filter((name) => !readBy.has(name) && !(name in READ_OUTSIDE_CONFIG_CLASSES))
            .map((name) => `README.md:${row.line}: ${name} is read by no configuration class`),
    );
    expect(unread).toEqual([]);
  });

  it('keeps the list of variables read outside configuration classes true', () => {
    const stale = Object.entries(READ_OUTSIDE_CONFIG_CLASSES)
      .filter(([name, file]) => !readsVariable(readFileSync(path.join(root, file), 'utf8'), name))
      .map(([name, file]) => `${file} no longer reads ${name}`);
    expect(stale).toEqual([]);
  });
});
