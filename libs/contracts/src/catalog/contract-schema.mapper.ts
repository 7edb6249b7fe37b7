import * as cv from 'class-validator';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { ContractDocs, propertyDescription } from './contract-docs';
import { JsonSchema } from './json-schema';

/** JSON Schema dialect of every exported contract. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A contract cannot be described faithfully; the message names the class, the property and what to change. */
export class CatalogError extends Error {
  override name = 'CatalogError';
}

type ContractClass = abstract new (...args: never[]) => object;

/**
 * A contract class → JSON Schema 2020-12, read from the class-validator metadata the code validates with (inherited
 * properties included, as validateSync sees them) and class-transformer's `@Type` for nested classes. Nested classes
 * go to `$defs`. A decorator without a mapping, or a rule the schema could not state exactly, throws a CatalogError
 * instead of producing a schema that says less or more than the code checks. `docs` (the classes' doc comments)
 * describe the properties and the nested classes; `examples` goes in as given.
 */
export function contractSchema(
  target: ContractClass,
  about: { id: string; title: string; description?: string; examples?: unknown[]; docs?: ContractDocs },
): JsonSchema {
  const builder = new SchemaBuilder(about.docs ?? {});
  const root = builder.objectSchema(target);
  const defs = builder.definitions();
  return {
    $schema: JSON_SCHEMA_DIALECT,
    $id: about.id,
    title: about.title,
    ...(about.description ? { description: about.description } : {}),
    ...root,
    ...(Object.keys(defs).length ? { $defs: defs } : {}),
    ...(about.examples ? { examples: about.examples } : {}),
  };
}

class SchemaBuilder {
  private readonly names = new Map<ContractClass, string>();
  private readonly defs = new Map<string, JsonSchema>();

  constructor(private readonly docs: ContractDocs) {}

  definitions(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.defs.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  objectSchema(target: ContractClass): JsonSchema {
    const storage = getMetadataStorage();
    const metadatas = storage.getTargetValidationMetadatas(target as never, '', false, false);
    if (metadatas.length === 0) throw new CatalogError(`${target.name} has no class-validator decorators`);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [name, list] of Object.entries(storage.groupByPropertyName(metadatas))) {
      const property = this.propertySchema(target, name, list);
      const description = propertyDescription(this.docs, target, name);
      properties[name] = description ? { description, ...property.schema } : property.schema;
      if (property.required) required.push(name);
    }
    return { type: 'object', properties, ...(required.length ? { required } : {}) };
  }

  private refTo(target: ContractClass): JsonSchema {
    let name = this.names.get(target);
    if (!name) {
      name = target.name;
      for (let n = 2; this.defs.has(name); n++) name = `${target.name}${n}`;
      this.names.set(target, name);
      this.defs.set(name, {}); // placeholder: a class that refers to itself finds its name
      const description = this.docs[target.name]?.description;
      this.defs.set(name, { title: target.name, ...(description ? { description } : {}), ...this.objectSchema(target) });
    }
    return { $ref: `#/$defs/${name}` };
  }

  private propertySchema(
    target: ContractClass,
    property: string,
    list: ValidationMetadata[],
  ): { schema: JsonSchema; required: boolean } {
    const where = `${target.name}.${property}`;
    const facets = new Facets(where);
    const items = new Facets(`${where}[]`);
    let optional = false;
    let nested: { each: boolean } | undefined;
    let constrained = false;
    for (const metadata of list) {
      if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        if (metadata.name !== cv.IS_OPTIONAL)
          throw new CatalogError(`${where}: @ValidateIf makes a rule conditional, which a schema cannot state`);
        optional = true;
      } else if (metadata.type === ValidationTypes.NESTED_VALIDATION) {
        nested = { each: metadata.each };
        constrained = true;
      } else if (metadata.type === ValidationTypes.IS_DEFINED) {
        constrained = true;
      } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
        constrained = true;
        (metadata.each ? items : facets).add(constraintName(metadata), metadata.constraints ?? []);
      } else if (metadata.type !== ValidationTypes.WHITELIST) {
        throw new CatalogError(`${where}: validation of kind ${metadata.type} has no JSON Schema mapping`);
      }
    }
    if (!items.isEmpty() && facets.type() !== 'array')
      throw new CatalogError(`${where}: a rule with { each: true } also applies to a single value; add @IsArray()`);
    let schema: JsonSchema;
    if (nested) {
      const ref = this.refTo(nestedClass(target, property, where));
      if (nested.each || facets.type() === 'array') {
        if (facets.type() !== 'array' || items.type() !== 'object')
          throw new CatalogError(
            `${where}: @ValidateNested({ each: true }) needs @IsArray() and @IsObject({ each: true }), or it also ` +
              'accepts an object, or arrays as elements',
          );
        schema = { ...facets.schema(), items: { ...ref, ...items.keywords() } };
      } else {
        if (facets.type() !== 'object')
          throw new CatalogError(
            `${where}: @ValidateNested() without @IsObject() also accepts an array or no value; add @IsObject()`,
          );
        schema = ref;
      }
    } else {
      schema = facets.schema();
      if (!items.isEmpty()) schema.items = items.schema();
    }
    return { schema: optional ? orNull(schema) : schema, required: constrained && !optional };
  }
}

function constraintName(metadata: ValidationMetadata): string {
  if (metadata.name) return metadata.name;
  const [constraint] = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
  return constraint?.name ?? 'unknown';
}

interface ClassTransformerStorage {
  findTypeMetadata(target: unknown, property: string): { typeFunction: (options?: unknown) => unknown } | undefined;
}

/** The class `@Type(() => X)` names: the one plainToInstance builds, so the one class-validator checks. */
function nestedClass(target: ContractClass, property: string, where: string): ContractClass {
  // class-transformer keeps @Type metadata in a storage its index does not export.
  const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
    defaultMetadataStorage: ClassTransformerStorage;
  };
  const nestedType = defaultMetadataStorage.findTypeMetadata(target, property)?.typeFunction();
  if (typeof nestedType !== 'function')
    throw new CatalogError(`${where}: @ValidateNested() needs @Type(() => TheClass) to name the nested class`);
  return nestedType as ContractClass;
}

/** `@IsOptional()` lets undefined and null through, so an optional property also accepts null. */
function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const widened: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    if ('const' in schema) {
      delete widened.const;
      widened.enum = [schema.const, null];
    }
    return widened;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

type Keywords = Record<string, unknown>;
type Mapping = (constraints: unknown[], where: string) => { type?: string; keywords?: Keywords };

const ISO_8601 = { anyOf: [{ format: 'date-time' }, { format: 'date' }] };

/** class-validator constraint name → the JSON Schema that states the same rule. */
const MAPPINGS: Record<string, Mapping> = {
  [cv.IS_STRING]: () => ({ type: 'string' }),
  [cv.IS_NOT_EMPTY]: () => ({ keywords: { notEmpty: true } }),
  [cv.MIN_LENGTH]: ([min]) => ({ type: 'string', keywords: { minLength: min } }),
  [cv.MAX_LENGTH]: ([max]) => ({ type: 'string', keywords: { maxLength: max } }),
  [cv.IS_LENGTH]: ([min, max]) => ({
    type: 'string',
    keywords: { minLength: min, ...(max === undefined ? {} : { maxLength: max }) },
  }),
  [cv.MATCHES]: ([pattern, modifiers], where) => {
    const regex = pattern instanceof RegExp ? pattern : new RegExp(String(pattern), String(modifiers ?? ''));
    if (regex.flags.replace(/[gu]/g, '') !== '')
      throw new CatalogError(`${where}: @Matches flags "${regex.flags}" have no JSON Schema equivalent`);
    return { type: 'string', keywords: { pattern: regex.source } };
  },
  [cv.IS_EMAIL]: () => ({ type: 'string', keywords: { format: 'email' } }),
  [cv.IS_UUID]: () => ({ type: 'string', keywords: { format: 'uuid' } }),
  [cv.IS_URL]: () => ({ type: 'string', keywords: { format: 'uri' } }),
  [cv.IS_ISO8601]: () => ({ type: 'string', keywords: ISO_8601 }),
  [cv.IS_DATE_STRING]: () => ({ type: 'string', keywords: ISO_8601 }),
  [cv.IS_INT]: () => ({ type: 'integer' }),
  [cv.IS_NUMBER]: () => ({ type: 'number' }),
  [cv.MIN]: ([min]) => ({ type: 'number', keywords: { minimum: min } }),
  [cv.MAX]: ([max]) => ({ type: 'number', keywords: { maximum: max } }),
  [cv.IS_POSITIVE]: () => ({ type: 'number', keywords: { exclusiveMinimum: 0 } }),
  [cv.IS_NEGATIVE]: () => ({ type: 'number', keywords: { exclusiveMaximum: 0 } }),
  [cv.IS_BOOLEAN]: () => ({ type: 'boolean' }),
  [cv.IS_IN]: ([values]) => ({ keywords: { enum: [...(values as unknown[])] } }),
  [cv.IS_ENUM]: ([entity]) => ({
    keywords: { enum: Object.keys(entity as object).map((key) => (entity as Record<string, unknown>)[key]) },
  }),
  [cv.EQUALS]: ([value]) => ({ keywords: { const: value } }),
  [cv.IS_ARRAY]: () => ({ type: 'array' }),
  [cv.ARRAY_MIN_SIZE]: ([min]) => ({ type: 'array', keywords: { minItems: min } }),
  [cv.ARRAY_MAX_SIZE]: ([max]) => ({ type: 'array', keywords: { maxItems: max } }),
  [cv.ARRAY_NOT_EMPTY]: () => ({ type: 'array', keywords: { minItems: 1 } }),
  [cv.IS_OBJECT]: () => ({ type: 'object' }),
};

const TIGHTER_IS_HIGHER = new Set(['minLength', 'minItems', 'minimum', 'exclusiveMinimum']);
const TIGHTER_IS_LOWER = new Set(['maxLength', 'maxItems', 'maximum', 'exclusiveMaximum']);

/** The rules on one value, merged: every rule must hold, so two types meet and two bounds keep the tighter one. */
class Facets {
  private readonly types: string[] = [];
  private readonly merged: Keywords = {};

  constructor(private readonly where: string) {}

  add(name: string, constraints: unknown[]): void {
    const mapping = MAPPINGS[name];
    if (!mapping)
      throw new CatalogError(
        `${this.where}: @${name} has no JSON Schema mapping; add one to MAPPINGS in contract-schema.mapper.ts`,
      );
    const { type, keywords = {} } = mapping(constraints, this.where);
    if (type) this.types.push(type);
    for (const [key, value] of Object.entries(keywords)) {
      const current = this.merged[key];
      if (current === undefined || JSON.stringify(current) === JSON.stringify(value)) this.merged[key] = value;
      else if (TIGHTER_IS_HIGHER.has(key)) this.merged[key] = Math.max(current as number, value as number);
      else if (TIGHTER_IS_LOWER.has(key)) this.merged[key] = Math.min(current as number, value as number);
      else throw new CatalogError(`${this.where}: two rules set ${key} differently`);
    }
  }

  isEmpty(): boolean {
    return this.types.length === 0 && Object.keys(this.merged).length === 0;
  }

  /** The one type every rule allows: integer meets number as integer; anything else must agree. */
  type(): string | undefined {
    const distinct = [...new Set(this.types)];
    if (distinct.length <= 1) return distinct[0];
    if (distinct.length === 2 && distinct.includes('integer') && distinct.includes('number')) return 'integer';
    throw new CatalogError(`${this.where}: rules require types ${distinct.join(' and ')} at once`);
  }

  keywords(): Keywords {
    const { notEmpty, ...rest } = this.merged;
    if (notEmpty && this.type() === 'string') rest.minLength = Math.max(1, (rest.minLength as number) ?? 0);
    else if (notEmpty) rest.not = { const: '' };
    return rest;
  }

  schema(): JsonSchema {
    const type = this.type();
    return { ...(type ? { type } : {}), ...this.keywords() };
  }
}
