import { TransformationType } from 'class-transformer';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';

/**
 * A yes/no answer to "would `validateSync(object, { forbidUnknownValues: true })` find no error?", read from the same
 * decorator metadata and calling the same constraint functions, in the order class-validator's executor does, but
 * without filtering the metadata storage and building error objects on every call (that was most of the cost of
 * validating an event). `undefined` means "cannot tell" (an async or unknown kind of constraint): ask class-validator.
 * Callers still take the error messages from class-validator when the answer is no; a property test holds the two
 * to the same answer.
 */
export function fastCheckValid(object: object): boolean | undefined {
  try {
    return objectValid(object);
  } catch (error) {
    if (error instanceof CannotTell) return undefined;
    throw error;
  }
}

/**
 * The same answer for `validateSync(plainToInstance(eventClass, plain), { forbidUnknownValues: true })`, read from
 * the parsed JSON itself: no instance is built. Nested objects are checked against the class their `@Type()` names,
 * as `plainToInstance` would have made them. `undefined` (cannot tell) for anything `plainToInstance` would change
 * besides that: `@Expose`, `@Exclude`, `@Transform`, a discriminator, a `@Type` of a built-in (`Number`, `Date`…).
 */
export function fastCheckPlainValid(eventClass: Function, plain: object): boolean | undefined {
  try {
    const plan = planOf(eventClass);
    if (plan === null) return false;
    if (!plan.plainReadable) return undefined;
    return plainObjectValid(plain, plan);
  } catch (error) {
    if (error instanceof CannotTell) return undefined;
    throw error;
  }
}

class CannotTell extends Error {}

const EMPTY = Object.freeze({});

// class-transformer keeps @Type() metadata in this storage and has no public reader for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const transformerStorage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage })
  .defaultMetadataStorage;

interface Constraint {
  validate: (value: unknown, args: ValidationArguments) => unknown;
  each: boolean;
  /** Made once; `object` and `value` are set before each call (constraints only read it). */
  args: ValidationArguments;
  validateIf?: (object: object, value: unknown) => boolean;
}

interface PropertyPlan {
  name: string;
  conditions: Array<(object: object, value: unknown) => boolean>;
  defined: Constraint[];
  custom: Constraint[];
  nested: boolean;
  /** The class `@Type()` names for this property, for the plain check; undefined when it has none. */
  nestedType?: Function;
}

interface ClassPlan {
  properties: PropertyPlan[];
  /** Whether `plainToInstance` would only copy values and turn nested objects into their `@Type()` class. */
  plainReadable: boolean;
}

/** Per class: the plan of its properties; `null` for a class without validation metadata (an unknown value). */
const plans = new Map<unknown, ClassPlan | null>();

function objectValid(object: object): boolean {
  const plan = planOf(object.constructor);
  if (plan === null) return false;
  for (const property of plan.properties)
    if (!propertyValid(object, (object as Record<string, unknown>)[property.name], property)) return false;
  return true;
}

function propertyValid(object: object, value: unknown, property: PropertyPlan): boolean {
  if (!conditionsMet(object, value, property)) return true;
  if (!constraintsHold(object, value, property.defined)) return false;
  if (!constraintsHold(object, value, property.custom)) return false;
  return !property.nested || nestedValid(value);
}

/** `@ValidateIf`: a property whose condition is false is not validated at all. */
function conditionsMet(object: object, value: unknown, property: PropertyPlan): boolean {
  for (const condition of property.conditions) if (!condition(object, value)) return false;
  return true;
}

function constraintsHold(object: object, value: unknown, constraints: Constraint[]): boolean {
  for (const constraint of constraints) {
    if (constraint.validateIf && !constraint.validateIf(object, value)) continue;
    const args = constraint.args;
    args.object = object;
    args.value = value;
    let ok = true;
    if (constraint.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)) {
      for (const item of value instanceof Map ? value.values() : value) if (!(ok = holds(constraint, item))) break;
    } else ok = holds(constraint, value);
    args.object = EMPTY; // hold no payload between calls
    args.value = undefined;
    if (!ok) return false;
  }
  return true;
}

function holds(constraint: Constraint, value: unknown): boolean {
  const result = constraint.validate(value, constraint.args);
  if (result instanceof Promise) throw new CannotTell();
  return Boolean(result);
}

/** class-validator's nested rule: undefined passes, arrays, sets and maps element by element, objects by their class. */
function nestedValid(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
    for (const item of value instanceof Map ? value.values() : value) if (!nestedValid(item)) return false;
    return true;
  }
  return value instanceof Object && objectValid(value);
}

function plainObjectValid(plain: object, plan: ClassPlan): boolean {
  for (const property of plan.properties) {
    const value = (plain as Record<string, unknown>)[property.name];
    if (!conditionsMet(plain, value, property)) continue;
    if (!constraintsHold(plain, value, property.defined)) return false;
    if (!constraintsHold(plain, value, property.custom)) return false;
    if (property.nested && !plainNestedValid(value, property.nestedType)) return false;
  }
  return true;
}

/** `nestedValid` of what `plainToInstance` makes of `value` given the `@Type()` class: arrays element by element. */
function plainNestedValid(value: unknown, nestedType: Function | undefined): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (!plainNestedValid(item, nestedType)) return false;
    return true;
  }
  if (value === null || typeof value !== 'object') return false;
  if (nestedType === undefined) throw new CannotTell(); // a plain Object copy: class-validator's unknown value
  const plan = planOf(nestedType);
  if (plan === null) return false;
  if (!plan.plainReadable) throw new CannotTell();
  return plainObjectValid(value, plan);
}

const BUILT_INS: unknown[] = [String, Number, Boolean, Date, Buffer, Map, Set, Object, Array, Promise];

function planOf(target: unknown): ClassPlan | null {
  if (plans.has(target)) return plans.get(target)!;
  const storage = getMetadataStorage();
  const metadatas = typeof target === 'function' ? storage.getTargetValidationMetadatas(target, '', false, false) : [];
  let plan: ClassPlan | null = null;
  if (metadatas.length > 0) {
    const targetClass = target as Function;
    let plainReadable =
      transformerStorage.getStrategy(targetClass) === 'none' &&
      transformerStorage.getExposedMetadatas(targetClass).length === 0 &&
      transformerStorage.getExcludedMetadatas(targetClass).length === 0;
    const properties = Object.entries(storage.groupByPropertyName(metadatas)).map(([name, list]) => {
      const property: PropertyPlan = { name, conditions: [], defined: [], custom: [], nested: false };
      for (const metadata of list) {
        if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) property.conditions.push(metadata.constraints[0]);
        else if (metadata.type === ValidationTypes.NESTED_VALIDATION) property.nested = true;
        else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION || metadata.type === ValidationTypes.IS_DEFINED) {
          for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
            if (constraint.async) continue; // validateSync skips async constraints
            const instance = constraint.instance;
            const entry: Constraint = {
              validate: instance.validate.bind(instance),
              each: metadata.each,
              args: {
                targetName: targetClass.name,
                property: name,
                object: EMPTY,
                value: undefined,
                constraints: metadata.constraints,
              },
              validateIf: metadata.validateIf,
            };
            (metadata.type === ValidationTypes.IS_DEFINED ? property.defined : property.custom).push(entry);
          }
        } else if (metadata.type !== ValidationTypes.WHITELIST) throw new CannotTell();
      }
      if (transformerStorage.findTransformMetadatas(targetClass, name, TransformationType.PLAIN_TO_CLASS).length > 0)
        plainReadable = false;
      const typeMetadata = transformerStorage.findTypeMetadata(targetClass, name);
      if (typeMetadata) {
        const nestedType = typeMetadata.typeFunction?.();
        const reflected = typeMetadata.reflectedType;
        if (
          !property.nested ||
          typeMetadata.options?.discriminator ||
          typeof nestedType !== 'function' ||
          BUILT_INS.includes(nestedType) ||
          !(reflected === undefined || reflected === Array || reflected === Object || reflected === nestedType)
        )
          plainReadable = false;
        else property.nestedType = nestedType;
      }
      return property;
    });
    plan = { properties, plainReadable };
  }
  plans.set(target, plan);
  return plan;
}
