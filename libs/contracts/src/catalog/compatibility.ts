import { parseVersionedType } from './catalog-files';
import { JsonSchema } from './json-schema';

/** One backward-incompatible change to a published event type. */
export interface Incompatibility {
  type: string;
  /** Dotted path of the field (`customer.email`, `lineItems[].quantity`); `(data)` for the whole value. */
  field: string;
  change: string;
}

export interface CatalogComparison {
  incompatible: Incompatibility[];
  /** Types with no committed schema yet: fine, but the catalogue must be exported. */
  added: string[];
  /** Types whose schema changed compatibly. */
  changed: string[];
}

/**
 * Compares the committed schemas (what producers, consumers, topics and dead letters already rely on) with freshly
 * generated ones. A published `…vN` must accept every message it accepted (no field becomes required, no type,
 * enum, pattern or bound tightens) and keep giving consumers what they read (no field removed, retyped or made
 * optional). Adding an optional field is compatible; anything else that changes is stated as a change.
 */
export function compareCatalogues(
  committed: Readonly<Record<string, JsonSchema>>,
  fresh: Readonly<Record<string, JsonSchema>>,
): CatalogComparison {
  const incompatible: Incompatibility[] = [];
  const changed: string[] = [];
  for (const type of Object.keys(committed).sort()) {
    if (!fresh[type]) {
      incompatible.push({
        type,
        field: '(data)',
        change: 'the type was removed; consumers and dead letters still have it',
      });
      continue;
    }
    const found = compareSchemas(type, committed[type], fresh[type]);
    incompatible.push(...found);
    if (found.length === 0 && JSON.stringify(committed[type]) !== JSON.stringify(fresh[type])) changed.push(type);
  }
  const added = Object.keys(fresh)
    .filter((type) => !committed[type])
    .sort();
  return { incompatible, added, changed };
}

/** What to do about an incompatibility: a new version of the type. */
export function describeIncompatibility({ type, field, change }: Incompatibility): string {
  const { name, version } = parseVersionedType(type);
  const next = version === null ? `a new versioned type` : `${name}.v${version + 1}`;
  return `${type}: ${field}: ${change}; an incompatible change needs a new type (${next}) beside ${type}`;
}

export function compareSchemas(type: string, before: JsonSchema, after: JsonSchema): Incompatibility[] {
  const found: Incompatibility[] = [];
  const report = (path: string, change: string) => found.push({ type, field: path || '(data)', change });
  compareNodes(new Side(before), before, new Side(after), after, '', report);
  return found;
}

type Report = (path: string, change: string) => void;

/** One schema document: resolves its own `#/$defs/…` references. */
class Side {
  constructor(private readonly root: JsonSchema) {}

  resolve(node: JsonSchema): JsonSchema {
    let current = node;
    for (let depth = 0; typeof current.$ref === 'string' && depth < 32; depth++) {
      const { $ref, ...rest } = current;
      const name = ($ref as string).replace(/^#\/\$defs\//, '');
      current = { ...((this.root.$defs as Record<string, JsonSchema> | undefined)?.[name] ?? {}), ...rest };
    }
    return current;
  }
}

/** A node without its null alternative: `{anyOf: [X, {type: null}]}` or `type: [T, 'null']`. */
function normalize(side: Side, raw: JsonSchema): { node: JsonSchema; nullable: boolean } {
  let node = side.resolve(raw);
  let nullable = false;
  const anyOf = node.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some(isNullOnly)) {
    const { anyOf: _pair, ...rest } = node;
    node = { ...side.resolve(anyOf.find((option) => !isNullOnly(option))!), ...rest };
    nullable = true;
  }
  const types = typesOf(node);
  if (types.includes('null')) nullable = true;
  return { node, nullable };
}

function isNullOnly(node: JsonSchema): boolean {
  return node.type === 'null' && Object.keys(node).length === 1;
}

function typesOf(node: JsonSchema): string[] {
  if (node.type === undefined) return [];
  return (Array.isArray(node.type) ? (node.type as string[]) : [node.type as string]).slice().sort();
}

/** Keywords compared on their own below; the rest must stay equal or be removed. */
const HANDLED = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'pattern',
  'format',
]);
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'default', '$id', '$schema', '$defs']);
const LOWER_BOUNDS = ['minLength', 'minItems', 'minimum', 'exclusiveMinimum'];
const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum'];

function compareNodes(
  beforeSide: Side,
  beforeRaw: JsonSchema,
  afterSide: Side,
  afterRaw: JsonSchema,
  path: string,
  report: Report,
): void {
  const before = normalize(beforeSide, beforeRaw);
  const after = normalize(afterSide, afterRaw);
  const b = before.node;
  const a = after.node;
  if (before.nullable && !after.nullable) report(path, 'no longer accepts null');

  const beforeTypes = typesOf(b).filter((t) => t !== 'null');
  const afterTypes = typesOf(a).filter((t) => t !== 'null');
  if (beforeTypes.join() !== afterTypes.join()) {
    report(path, `retyped from ${beforeTypes.join('|') || 'any'} to ${afterTypes.join('|') || 'any'}`);
    return; // the rest would only repeat it
  }

  compareEnum(b, a, path, report);
  if ('const' in a && JSON.stringify(a.const) !== JSON.stringify(b.const))
    report(path, `now must equal ${JSON.stringify(a.const)}`);
  for (const key of LOWER_BOUNDS) {
    if (a[key] !== undefined && (b[key] === undefined || (a[key] as number) > (b[key] as number)))
      report(path, `${key} tightened from ${String(b[key] ?? 'none')} to ${String(a[key])}`);
  }
  for (const key of UPPER_BOUNDS) {
    if (a[key] !== undefined && (b[key] === undefined || (a[key] as number) < (b[key] as number)))
      report(path, `${key} tightened from ${String(b[key] ?? 'none')} to ${String(a[key])}`);
  }
  for (const key of ['pattern', 'format']) {
    if (a[key] !== undefined && a[key] !== b[key])
      report(path, `${key} changed from ${JSON.stringify(b[key] ?? null)} to ${JSON.stringify(a[key])}`);
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (HANDLED.has(key) || ANNOTATIONS.has(key) || a[key] === undefined) continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key]))
      report(path, `${key} changed (hookrail cannot tell that every old message still passes)`);
  }

  compareProperties(beforeSide, b, afterSide, a, path, report);
  if (b.items && a.items)
    compareNodes(beforeSide, b.items as JsonSchema, afterSide, a.items as JsonSchema, `${path}[]`, report);
  else if (a.items && !b.items) report(`${path}[]`, 'items are now constrained');
}

function compareEnum(b: JsonSchema, a: JsonSchema, path: string, report: Report): void {
  if (!Array.isArray(a.enum)) return;
  if (!Array.isArray(b.enum)) {
    report(path, `now restricted to ${JSON.stringify(a.enum)}`);
    return;
  }
  const kept = new Set(a.enum.map((value) => JSON.stringify(value)));
  const dropped = b.enum.filter((value) => !kept.has(JSON.stringify(value)));
  if (dropped.length)
    report(path, `enum narrowed: ${dropped.map((value) => JSON.stringify(value)).join(', ')} removed`);
}

function compareProperties(
  beforeSide: Side,
  b: JsonSchema,
  afterSide: Side,
  a: JsonSchema,
  path: string,
  report: Report,
): void {
  const beforeProps = (b.properties ?? {}) as Record<string, JsonSchema>;
  const afterProps = (a.properties ?? {}) as Record<string, JsonSchema>;
  const beforeRequired = new Set((b.required ?? []) as string[]);
  const afterRequired = new Set((a.required ?? []) as string[]);
  const at = (name: string) => (path ? `${path}.${name}` : name);
  for (const name of Object.keys(beforeProps)) {
    if (!(name in afterProps)) {
      report(at(name), 'removed');
      continue;
    }
    if (beforeRequired.has(name) && !afterRequired.has(name))
      report(at(name), 'became optional (consumers may find it missing)');
    if (!beforeRequired.has(name) && afterRequired.has(name)) report(at(name), 'became required');
    compareNodes(beforeSide, beforeProps[name], afterSide, afterProps[name], at(name), report);
  }
  for (const name of Object.keys(afterProps)) {
    if (!(name in beforeProps) && afterRequired.has(name)) report(at(name), 'required field added');
  }
}
