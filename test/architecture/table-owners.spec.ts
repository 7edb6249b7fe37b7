import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DYNAMIC, entityTables, sourceFiles, TableStatement, tableStatements } from './sql-statements';
import { ALLOWED, Allowance, TABLE_OWNERS } from './table-owners';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Where product code, scripts and benchmarks live; the tests in test/ are not scanned. */
const SCANNED = ['apps', 'libs', 'scripts', 'bench'];
/**
 * Exempt: the migrations (they own the schema), and tests with their fixtures (the same set the import rules call
 * test support): a test sets up and checks rows on its own, independently of the code it tests.
 */
const EXEMPT = [/^libs\/db\/src\/migrations\//, /\.(spec|int-spec|e2e-spec)\.ts$/, /\/testing\//, /^libs\/testing\//];

/** The tables the migrations leave: each `up` in order, its CREATE TABLEs added and its DROP TABLEs removed. */
const MIGRATION_TABLES = new Set<string>();
for (const file of sourceFiles(root, ['libs/db/src/migrations']).sort()) {
  const up = read(file).split(/async down\(/)[0];
  for (const [, verb, table] of up.matchAll(/(CREATE|DROP) TABLE (?:IF (?:NOT )?EXISTS )?"?([a-z_][a-z0-9_]*)"?/g)) {
    if (verb === 'CREATE') MIGRATION_TABLES.add(table);
    else MIGRATION_TABLES.delete(table);
  }
}
const ENTITIES = new Map(
  sourceFiles(root, ['apps', 'libs'])
    .filter((file) => file.endsWith('.entity.ts'))
    .flatMap((file) => [...entityTables(read(file))]),
);

const ownerFiles = (table: string) => TABLE_OWNERS[table].files.map((file) => `${TABLE_OWNERS[table].package}/${file}`);
const describeOwner = (table: string) => {
  const owner = TABLE_OWNERS[table];
  return `${owner.package} (${owner.files.join(', ')})`;
};

function scan(): TableStatement[] {
  const tables = new Set(Object.keys(TABLE_OWNERS));
  return sourceFiles(root, SCANNED)
    .filter((file) => !EXEMPT.some((pattern) => pattern.test(file)))
    .flatMap((file) => tableStatements(file, read(file), tables, ENTITIES));
}

const allows = (allowance: Allowance, statement: TableStatement) =>
  allowance.file === statement.file &&
  allowance.table === statement.table &&
  (allowance.access === 'write' || statement.access === 'read');

describe('one owner per table', () => {
  const statements = scan();

  it('names an owner for every table the migrations create and every entity maps, and for no other', () => {
    const tables = new Set([...MIGRATION_TABLES, ...ENTITIES.values(), 'typeorm_migrations']);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('runs SQL on a table only in its owner’s files', () => {
    const outside = statements.filter(
      (statement) =>
        statement.table !== DYNAMIC &&
        !ownerFiles(statement.table).includes(statement.file) &&
        !ALLOWED.some((allowance) => allows(allowance, statement)),
    );
    const lines = outside.map(
      (s) => `${s.file}:${s.line}  ${s.text}  — ${s.table} belongs to ${describeOwner(s.table)}: call its methods`,
    );
    expect(lines).toEqual([]);
  });

  it('names every table in a clause, not through an expression', () => {
    const dynamic = statements.filter(
      (statement) => statement.table === DYNAMIC && !ALLOWED.some((allowance) => allows(allowance, statement)),
    );
    expect(dynamic.map((s) => `${s.file}:${s.line}  ${s.text}  — write the table's name out`)).toEqual([]);
  });

  it('lists as owner files only files that run SQL on the table, and no allowance that nothing uses', () => {
    const idle = Object.keys(TABLE_OWNERS).flatMap((table) =>
      ownerFiles(table)
        .filter((file) => !statements.some((s) => s.file === file && s.table === table))
        .map((file) => `${file} runs no SQL on ${table}${existsSync(path.join(root, file)) ? '' : ' (no such file)'}`),
    );
    const unused = ALLOWED.filter((allowance) => !statements.some((s) => allows(allowance, s))).map(
      (allowance) => `${allowance.file} ${allowance.table} (${allowance.kind}): no longer needed`,
    );
    expect([...idle, ...unused]).toEqual([]);
  });

  it('gives each table the same owner in docs/architecture.md', () => {
    const doc = read('docs/architecture.md');
    const section = doc.slice(doc.indexOf('\n## Tables\n'), doc.indexOf('\n## ', doc.indexOf('\n## Tables\n') + 1));
    const rows = new Map([...section.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \|/gm)].map((match) => [match[1], match[2]]));
    const wrong = Object.entries(TABLE_OWNERS)
      .filter(([table, owner]) => !rows.get(table)?.includes(owner.package))
      .map(([table, owner]) => `${table}: the owner column should name ${owner.package}, not "${rows.get(table)}"`);
    expect(wrong).toEqual([]);
  });
});
