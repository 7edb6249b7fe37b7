import { getMetadataStorage } from 'class-validator';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { classDocs, ClassDocs, typeScriptSources } from '../lib/doc-comments';

/** Where the configuration classes live: every class exported by a `*.env.ts` file under these directories. */
export const CONFIG_SOURCES = ['apps', 'libs', 'scripts'];

export type ConfigClass = new () => object;

/** A configuration class, the file that declares it (from the repository root) and its doc comments. */
export interface ConfigClassSource {
  cls: ConfigClass;
  file: string;
  docs: ClassDocs;
}

/** One variable as a configuration class reads it. */
export interface ConfigVariable {
  name: string;
  /** The nearest class of the chain that declares the property: its doc comment is the variable's meaning. */
  declaredBy: ConfigClassSource;
  /** The property's value in a new instance: the default when the variable is not set (`undefined`: none). */
  value: unknown;
  /** The doc comment's text; paragraphs are separated by a blank line. */
  meaning?: string;
  /** The doc comment's `@default`, for a default the class cannot hold (one computed where it is used). */
  defaultTag?: string;
  /** No value and validated unconditionally: the app does not start without it. */
  required: boolean;
  /** class-validator's `@Min` and `@Max`, when they bound the value itself and apply unconditionally. */
  min?: number;
  max?: number;
}

/**
 * Every class exported by a `*.env.ts` file, by name, with its file and doc comments. The classes are loaded
 * (`require`), so this runs on the TypeScript sources (jest, `node -r @swc-node/register`). Throws when two classes
 * share a name, or when a `*.env.ts` file declares a class it does not export.
 */
export function readConfigClasses(root: string): Map<string, ConfigClassSource> {
  const classes = new Map<string, ConfigClassSource>();
  const files = CONFIG_SOURCES.filter((dir) => existsSync(path.join(root, dir)))
    .flatMap((dir) => typeScriptSources(path.join(root, dir)))
    .filter((file) => file.endsWith('.env.ts'));
  for (const absolute of files) {
    const file = path.relative(root, absolute);
    const exported = require(absolute) as Record<string, unknown>;
    for (const docs of classDocs(absolute)) {
      const cls = exported[docs.name];
      if (typeof cls !== 'function') throw new Error(`${file} declares class ${docs.name} but does not export it`);
      const twin = classes.get(docs.name);
      if (twin) throw new Error(`configuration class ${docs.name} is declared twice: ${twin.file} and ${file}`);
      classes.set(docs.name, { cls: cls as ConfigClass, file, docs });
    }
  }
  return classes;
}

/**
 * The variables `cls` reads: its validated properties and the ones with a default, inherited ones too, each described
 * by the nearest declaration in its class chain (an override's comment replaces its ancestor's). Ordered as declared,
 * the class's own first, then each ancestor's. Throws for a property that no class of `classes` declares.
 */
export function variablesOf(cls: ConfigClass, classes: Map<string, ConfigClassSource>): ConfigVariable[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
  const instance = new cls() as Record<string, unknown>;
  const names = new Set([...metadata.map((entry) => entry.propertyName), ...Object.keys(instance)]);
  const variables: ConfigVariable[] = [];
  for (const declaring of chainOf(cls, classes)) {
    for (const { name, doc } of declaring.docs.properties) {
      if (!names.delete(name)) continue;
      const own = metadata.filter((entry) => entry.propertyName === name);
      const conditional = own.some((entry) => entry.type === 'conditionalValidation');
      const bound = (kind: 'min' | 'max') =>
        conditional ? undefined : (own.find((entry) => entry.name === kind && !entry.each)?.constraints[0] as number);
      variables.push({
        name,
        declaredBy: declaring,
        value: instance[name],
        meaning: doc.text,
        defaultTag: doc.tags.default,
        required: instance[name] === undefined && !conditional && own.length > 0,
        min: bound('min'),
        max: bound('max'),
      });
    }
  }
  if (names.size > 0)
    throw new Error(`${cls.name} reads ${[...names].join(', ')}, which no class of a *.env.ts file declares`);
  return variables;
}

/** `cls` and its ancestors, nearest first, as long as they are configuration classes. */
function chainOf(cls: ConfigClass, classes: Map<string, ConfigClassSource>): ConfigClassSource[] {
  const chain: ConfigClassSource[] = [];
  for (let current = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const source = classes.get(current.name);
    if (source?.cls !== current) break;
    chain.push(source);
  }
  return chain;
}
