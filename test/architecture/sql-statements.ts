import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One place in the code that names a table in SQL, or hands its TypeORM entity to a query method. */
export interface TableStatement {
  file: string;
  line: number;
  /** The table, or `${…}` when a clause names it through an expression (the check cannot tell which). */
  table: string;
  /** `read`: named after FROM, JOIN or USING (or in a FROM list); `write`: after INTO, UPDATE, DELETE FROM, TRUNCATE… */
  access: 'read' | 'write';
  /** The words that name it, as found: `DELETE FROM processed_events`, `getRepository(OutboxMessageEntity)`. */
  text: string;
}

/** The name of a table expressed through a template's `${…}`. */
export const DYNAMIC = '${…}';

const WRITE = String.raw`INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|LOCK(?:\s+TABLE)?|COPY|MERGE\s+INTO`;
const READ = String.raw`FROM|JOIN|USING`;
/** A clause and the table it names: `"outbox"`, `public.outbox`, `ONLY outbox`, or a template's `${}`. */
const CLAUSE = String.raw`\b(${WRITE}|${READ})\s+(?:ONLY\s+)?(?:"?public"?\.)?("?[a-z_][a-z0-9_]*"?|\$\{\})`;
/** A literal whose text begins like a statement: its clauses are SQL in any case. */
const STATEMENT_START = /^[\s(]*(?:\$\{\}\s*)*(?:SELECT|INSERT|UPDATE|DELETE|WITH|TRUNCATE|LOCK|COPY|MERGE|VALUES)\b/i;
/** Words that end a FROM list item's alias: the next clause. */
const NOT_ALIAS =
  /^(?:WHERE|GROUP|ORDER|LIMIT|OFFSET|RETURNING|ON|JOIN|LEFT|RIGHT|FULL|INNER|CROSS|NATURAL|LATERAL|UNION|EXCEPT|INTERSECT|FOR|WINDOW|HAVING|SET|USING|WITH|AS|SELECT|VALUES)$/i;

/** TypeORM calls that take an entity class and query its table. */
const ENTITY_METHODS = new Set([
  'getRepository',
  'getTreeRepository',
  'createQueryBuilder',
  'InjectRepository',
  'find',
  'findOne',
  'findBy',
  'findOneBy',
  'findOneOrFail',
  'findOneByOrFail',
  'findAndCount',
  'findAndCountBy',
  'count',
  'countBy',
  'exists',
  'existsBy',
  'save',
  'insert',
  'update',
  'upsert',
  'delete',
  'remove',
  'softDelete',
  'restore',
  'increment',
  'decrement',
  'sum',
  'average',
  'minimum',
  'maximum',
  'clear',
]);

/** Every `.ts` file under `dirs` (relative to `root`), skipping node_modules and build output. */
export function sourceFiles(root: string, dirs: string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', '.cache'].includes(entry.name)) walk(rel);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(rel);
    }
  };
  dirs.forEach(walk);
  return files.sort();
}

/** `@Entity('table')` classes of one entity file's text: class name → table. */
export function entityTables(source: string): Map<string, string> {
  const tables = new Map<string, string>();
  for (const match of source.matchAll(/@Entity\(\s*'([a-z_][a-z0-9_]*)'[^]*?export class ([A-Z][A-Za-z0-9_]*)/g)) {
    tables.set(match[2], match[1]);
  }
  return tables;
}

/**
 * The places in one file's code that name one of `tables`: SQL in its string and template literals (comments and
 * identifiers never count; a template's `${…}` parts read as a blank), and TypeORM calls given one of `entities`.
 * A clause's keyword counts in capitals anywhere, and in any case in a literal that begins like a statement, so that
 * prose such as a metric's help text ("read from sagas") is not taken for SQL.
 */
export function tableStatements(
  file: string,
  source: string,
  tables: ReadonlySet<string>,
  entities: ReadonlyMap<string, string>,
): TableStatement[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: TableStatement[] = [];
  const lineAt = (start: number, text: string, index: number) =>
    sf.getLineAndCharacterOfPosition(start).line + 1 + (text.slice(0, index).match(/\n/g)?.length ?? 0);

  const searchLiteral = (start: number, text: string) => {
    const anyCase = STATEMENT_START.test(text);
    for (const match of text.matchAll(new RegExp(CLAUSE, anyCase ? 'gi' : 'g'))) {
      const keyword = match[1].replace(/\s+/g, ' ').toUpperCase();
      const access = new RegExp(`^(?:${READ})$`, 'i').test(keyword) ? 'read' : 'write';
      const named = match[2] === '${}' ? DYNAMIC : match[2].replace(/"/g, '').toLowerCase();
      const at = (index: number) => lineAt(start, text, index);
      if (named === DYNAMIC || tables.has(named)) {
        found.push({ file, line: at(match.index), table: named, access, text: `${keyword} ${match[2]}` });
      }
    }
    for (const match of text.matchAll(new RegExp(String.raw`\bFROM\b`, anyCase ? 'gi' : 'g'))) {
      for (const item of laterFromItems(text, match.index + match[0].length)) {
        if (tables.has(item.table)) {
          const line = lineAt(start, text, item.index);
          found.push({ file, line, table: item.table, access: 'read', text: `FROM …, ${item.table}` });
        }
      }
    }
  };

  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      searchLiteral(node.getStart(sf), node.text);
    } else if (ts.isTemplateExpression(node)) {
      searchLiteral(
        node.getStart(sf),
        [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('${}'),
      );
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const method = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      const first = node.arguments[0];
      if (ENTITY_METHODS.has(method) && first && ts.isIdentifier(first) && entities.has(first.text)) {
        const table = entities.get(first.text)!;
        const access = /^(find|count|exists|sum|average|minimum|maximum)/.test(method) ? 'read' : 'write';
        found.push({ file, line: lineAt(node.getStart(sf), '', 0), table, access, text: `${method}(${first.text})` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * The tables after the first item of the FROM list that begins at `from` (`FROM unnest(…) AS u(…), webhook_endpoints
 * e`): each item is a name, or a parenthesised or called expression, then an optional alias with its column list; a
 * comma goes on to the next. The first item is the clause's own (a name, found by the caller, or an expression).
 */
function laterFromItems(text: string, from: number): Array<{ table: string; index: number }> {
  const items: Array<{ table: string; index: number }> = [];
  let at = from;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at])) at += 1;
  };
  const skipParens = () => {
    let depth = 0;
    do {
      if (text[at] === '(') depth += 1;
      else if (text[at] === ')') depth -= 1;
      at += 1;
    } while (at < text.length && depth > 0);
  };
  const word = () => {
    const match = /^"?[A-Za-z_][A-Za-z0-9_.]*"?/.exec(text.slice(at));
    return match?.[0];
  };
  for (let first = true; ; first = false) {
    skipSpace();
    const name = word();
    if (name === undefined) {
      if (text[at] !== '(') return items;
      skipParens();
    } else {
      const index = at;
      at += name.length;
      skipSpace();
      if (text[at] === '(') skipParens();
      else if (!first) items.push({ table: name.replace(/"/g, '').toLowerCase(), index });
    }
    skipSpace();
    // Alias: `AS x`, `x`, each with an optional column list.
    if (/^AS\b/i.test(text.slice(at))) {
      at += 2;
      skipSpace();
    }
    const alias = word();
    if (alias !== undefined && !NOT_ALIAS.test(alias)) {
      at += alias.length;
      skipSpace();
      if (text[at] === '(') skipParens();
      skipSpace();
    }
    if (/^WITH\s+ORDINALITY\b/i.test(text.slice(at))) {
      at += /^WITH\s+ORDINALITY/i.exec(text.slice(at))![0].length;
      continue;
    }
    if (text[at] !== ',') return items;
    at += 1;
  }
}
