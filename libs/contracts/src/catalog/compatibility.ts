import { parseVersionedType } from './catalog-files';
import { JsonSchema } from './json-schema';

/**
 * Which readers a published type's schema must keep working for, as Confluent Schema Registry names the modes:
 * BACKWARD (new readers read old data), FORWARD (old readers read new data), FULL (both); `_TRANSITIVE` against
 * every committed revision of the type, otherwise against the latest one only.
 */
export type CompatibilityMode =
  | 'BACKWARD'
  | 'BACKWARD_TRANSITIVE'
  | 'FORWARD'
  | 'FORWARD_TRANSITIVE'
  | 'FULL'
  | 'FULL_TRANSITIVE';

/** The mode of hookrail's catalogue: both directions, against every revision ever committed. */
export const DEFAULT_COMPATIBILITY: CompatibilityMode = 'FULL_TRANSITIVE';

/**
 * Which reader breaks. `backward`: a reader with the new schema rejects data written under a committed one (still in
 * the topics, the dead letters, a replay). `forward`: a reader with a committed schema rejects data written under the
 * new one (a consumer that has not upgraded).
 */
export type CompatibilityDirection = 'backward' | 'forward';

/** One incompatible change to a published event type. */
export interface Incompatibility {
  type: string;
  /** Dotted path of the field (`customer.email`, `lineItems[].quantity`); `(data)` for the whole value. */
  field: string;
  change: string;
  direction: CompatibilityDirection;
  /** The committed revisions of the type it breaks against (1 is the first one committed). */
  revisions: number[];
}

export interface CatalogComparison {
  incompatible: Incompatibility[];
  /** Types with no committed schema yet: fine, but the catalogue must be exported. */
  added: string[];
  /** Types whose schema changed compatibly (descriptions included). */
  changed: string[];
  /** Of those, the types whose rules changed: the export keeps the replaced schema as a revision of its own. */
  revised: string[];
}

/**
 * Compares the committed revisions of each type (oldest first, the last one the current schema) with freshly
 * generated schemas, in `mode`: what producers, consumers, topics and dead letters already rely on must keep
 * working in the mode's directions. Adding an optional field is compatible both ways (hookrail's data carries only
 * the fields its contract names); anything else that changes a rule is stated as a change, with its direction.
 */
export function compareCatalogues(
  committed: Readonly<Record<string, readonly JsonSchema[]>>,
  fresh: Readonly<Record<string, JsonSchema>>,
  mode: CompatibilityMode = DEFAULT_COMPATIBILITY,
): CatalogComparison {
  const incompatible: Incompatibility[] = [];
  const changed: string[] = [];
  const revised: string[] = [];
  for (const type of Object.keys(committed).sort()) {
    const revisions = committed[type];
    if (revisions.length === 0) continue;
    if (!fresh[type]) {
      incompatible.push({
        type,
        field: '(data)',
        change: 'the type was removed; consumers and dead letters still have it',
        direction: 'forward',
        revisions: [revisions.length],
      });
      continue;
    }
    const found = compareRevisions(type, revisions, fresh[type], mode);
    incompatible.push(...found);
    const current = revisions[revisions.length - 1];
    if (found.length === 0 && JSON.stringify(current) !== JSON.stringify(fresh[type])) {
      changed.push(type);
      if (JSON.stringify(withoutAnnotations(current)) !== JSON.stringify(withoutAnnotations(fresh[type])))
        revised.push(type);
    }
  }
  const added = Object.keys(fresh)
    .filter((type) => !committed[type]?.length)
    .sort();
  return { incompatible, added, changed, revised };
}

/** The schema against each committed revision the mode names, each change reported once with every revision it breaks. */
function compareRevisions(
  type: string,
  revisions: readonly JsonSchema[],
  after: JsonSchema,
  mode: CompatibilityMode,
): Incompatibility[] {
  const directions: CompatibilityDirection[] = mode.startsWith('FULL')
    ? ['backward', 'forward']
    : mode.startsWith('BACKWARD')
      ? ['backward']
      : ['forward'];
  const first = mode.endsWith('_TRANSITIVE') ? 0 : revisions.length - 1;
  const byChange = new Map<string, Incompatibility>();
  for (let index = first; index < revisions.length; index++) {
    for (const found of compareSchemas(type, revisions[index], after)) {
      if (!directions.includes(found.direction)) continue;
      const key = `${found.field}\n${found.change}\n${found.direction}`;
      const seen = byChange.get(key);
      if (seen) seen.revisions.push(index + 1);
      else byChange.set(key, { ...found, revisions: [index + 1] });
    }
  }
  return [...byChange.values()];
}

const DIRECTION_TEXT: Record<CompatibilityDirection, string> = {
  backward: 'new readers cannot read old data (backward)',
  forward: 'old readers cannot read new data (forward)',
};

/** What broke, for whom, against which committed revisions, and what to do instead: a new version of the type. */
export function describeIncompatibility({ type, field, change, direction, revisions }: Incompatibility): string {
  const { name, version } = parseVersionedType(type);
  const next = version === null ? `a new versioned type` : `${name}.v${version + 1}`;
  const against = `committed revision${revisions.length > 1 ? 's' : ''} ${revisions.join(', ')}`;
  return (
    `${type}: ${field}: ${change}: ${DIRECTION_TEXT[direction]}, against ${against}; ` +
    `an incompatible change needs a new type (${next}) beside ${type}`
  );
}

/** Every incompatible difference between two schemas of one type, in both directions. */
export function compareSchemas(
  type: string,
  before: JsonSchema,
  after: JsonSchema,
): Array<Omit<Incompatibility, 'revisions'>> {
  const found: Array<Omit<Incompatibility, 'revisions'>> = [];
  const report: Report = (path, change, direction) => found.push({ type, field: path || '(data)', change, direction });
  compareNodes(new Side(before), before, new Side(after), after, '', report);
  return found;
}

type Report = (path: string, change: string, direction: CompatibilityDirection) => void;

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
  if (Array.isArray(node.enum) && node.enum.includes(null)) {
    nullable = true;
    node = { ...node, enum: node.enum.filter((value) => value !== null) };
  }
  return { node, nullable };
}

function isNullOnly(node: JsonSchema): boolean {
  return node.type === 'null' && Object.keys(node).length === 1;
}

function typesOf(node: JsonSchema): string[] {
  if (node.type === undefined) return [];
  return (Array.isArray(node.type) ? (node.type as string[]) : [node.type as string]).slice().sort();
}

/** Whether every value of types `inner` is also of types `outer` (no types: any value; a number covers an integer). */
function covers(outer: string[], inner: string[]): boolean {
  if (outer.length === 0) return true;
  if (inner.length === 0) return false;
  return inner.every((type) => outer.includes(type) || (type === 'integer' && outer.includes('number')));
}

/** Keywords compared on their own below; the rest must stay equal. */
const HANDLED = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'default',
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
/** Keywords that say something about the data without ruling on it. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', '$id', '$schema', '$defs']);
const LOWER_BOUNDS = ['minLength', 'minItems', 'minimum', 'exclusiveMinimum'];
const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum'];

/** The schema without titles, descriptions and examples: what decides which data passes. */
export function withoutAnnotations(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutAnnotations);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !['title', 'description', '$comment', 'examples'].includes(key))
      .map(([key, value]) => [key, key === 'properties' ? mapValues(value, withoutAnnotations) : withoutAnnotations(value)]),
  );
}

function mapValues(record: unknown, map: (value: unknown) => unknown): unknown {
  if (typeof record !== 'object' || record === null) return record;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

const show = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));

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
  if (before.nullable && !after.nullable) report(path, 'no longer accepts null', 'backward');
  if (!before.nullable && after.nullable) report(path, 'now accepts null', 'forward');

  const beforeTypes = typesOf(b).filter((t) => t !== 'null');
  const afterTypes = typesOf(a).filter((t) => t !== 'null');
  if (beforeTypes.join() !== afterTypes.join()) {
    const change = `retyped from ${beforeTypes.join('|') || 'any'} to ${afterTypes.join('|') || 'any'}`;
    if (!covers(afterTypes, beforeTypes)) report(path, change, 'backward');
    if (!covers(beforeTypes, afterTypes)) report(path, change, 'forward');
    return; // the rest would only repeat it
  }

  compareEnum(b, a, path, report);
  compareConst(b, a, path, report);
  compareDefault(b, a, path, report);
  for (const key of LOWER_BOUNDS) compareBound(key, b[key], a[key], (x, y) => y > x, path, report);
  for (const key of UPPER_BOUNDS) compareBound(key, b[key], a[key], (x, y) => y < x, path, report);
  for (const key of ['pattern', 'format']) {
    if (a[key] === b[key]) continue;
    const change =
      b[key] === undefined
        ? `${key} ${show(a[key])} added`
        : a[key] === undefined
          ? `${key} ${show(b[key])} removed`
          : `${key} changed from ${show(b[key])} to ${show(a[key])}`;
    // Whether one regular expression or format includes another cannot be decided: a change breaks both ways.
    if (a[key] !== undefined) report(path, change, 'backward');
    if (b[key] !== undefined) report(path, change, 'forward');
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (HANDLED.has(key) || ANNOTATIONS.has(key)) continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) {
      const change = `${key} changed (hookrail cannot tell which data still passes)`;
      report(path, change, 'backward');
      report(path, change, 'forward');
    }
  }

  compareProperties(beforeSide, b, afterSide, a, path, report);
  if (b.items && a.items)
    compareNodes(beforeSide, b.items as JsonSchema, afterSide, a.items as JsonSchema, `${path}[]`, report);
  else if (a.items && !b.items) report(`${path}[]`, 'items are now constrained', 'backward');
  else if (b.items && !a.items) report(`${path}[]`, 'items are no longer constrained', 'forward');
}

/**
 * A bound that tightens breaks new readers of old data; one that loosens (or goes) breaks old readers of new data:
 * `orderId` with `maxLength` 1000 lets a producer write 500 characters that a consumer validating with 200 rejects.
 */
function compareBound(
  key: string,
  before: unknown,
  after: unknown,
  tighter: (before: number, after: number) => boolean,
  path: string,
  report: Report,
): void {
  if (before === after) return;
  if (after !== undefined && (before === undefined || tighter(before as number, after as number)))
    report(path, `${key} tightened from ${show(before)} to ${show(after)}`, 'backward');
  else report(path, `${key} loosened from ${show(before)} to ${show(after)}`, 'forward');
}

function compareEnum(b: JsonSchema, a: JsonSchema, path: string, report: Report): void {
  if (!Array.isArray(a.enum) && !Array.isArray(b.enum)) return;
  if (!Array.isArray(b.enum)) return report(path, `now restricted to ${show(a.enum)}`, 'backward');
  if (!Array.isArray(a.enum)) return report(path, `no longer restricted to ${show(b.enum)}`, 'forward');
  const values = (list: unknown[]) => new Set(list.map((value) => JSON.stringify(value)));
  const [beforeValues, afterValues] = [values(b.enum), values(a.enum)];
  const removed = [...beforeValues].filter((value) => !afterValues.has(value));
  const added = [...afterValues].filter((value) => !beforeValues.has(value));
  if (removed.length) report(path, `enum narrowed: ${removed.join(', ')} removed`, 'backward');
  if (added.length) report(path, `enum widened: ${added.join(', ')} added`, 'forward');
}

function compareConst(b: JsonSchema, a: JsonSchema, path: string, report: Report): void {
  if (JSON.stringify(a.const) === JSON.stringify(b.const)) return;
  if ('const' in a) report(path, `now must equal ${show(a.const)}`, 'backward');
  if ('const' in b) report(path, `no longer must equal ${show(b.const)}`, 'forward');
}

/**
 * A default is what a reader fills in when the field is missing: once published, readers of old and new data must
 * fill in the same value, so a default may not be removed, added to a field or changed.
 */
function compareDefault(b: JsonSchema, a: JsonSchema, path: string, report: Report): void {
  if (JSON.stringify(a.default) === JSON.stringify(b.default)) return;
  if (!('default' in a)) report(path, `default ${show(b.default)} removed`, 'backward');
  else if (!('default' in b)) report(path, `default ${show(a.default)} added`, 'forward');
  else {
    report(path, `default changed from ${show(b.default)} to ${show(a.default)}`, 'backward');
    report(path, `default changed from ${show(b.default)} to ${show(a.default)}`, 'forward');
  }
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
      // An optional field may go: old readers do without it, new readers still accept old data that has it. A
      // later schema that brings the name back with other rules is checked against the revisions that had it.
      if (beforeRequired.has(name)) report(at(name), 'removed (old readers require it)', 'forward');
      continue;
    }
    if (beforeRequired.has(name) && !afterRequired.has(name))
      report(at(name), 'became optional (old readers require it)', 'forward');
    if (!beforeRequired.has(name) && afterRequired.has(name))
      report(at(name), 'became required (old data may lack it)', 'backward');
    compareNodes(beforeSide, beforeProps[name], afterSide, afterProps[name], at(name), report);
  }
  for (const name of Object.keys(afterProps)) {
    if (!(name in beforeProps) && afterRequired.has(name))
      report(at(name), 'required field added (old data lacks it)', 'backward');
  }
}
