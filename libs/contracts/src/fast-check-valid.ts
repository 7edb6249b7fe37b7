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

class CannotTell extends Error {}

interface Constraint {
  validate: (value: unknown, args: ValidationArguments) => unknown;
  each: boolean;
  constraints: unknown[];
  validateIf?: (object: object, value: unknown) => boolean;
}

interface PropertyPlan {
  name: string;
  targetName: string;
  conditions: Array<(object: object, value: unknown) => boolean>;
  defined: Constraint[];
  custom: Constraint[];
  nested: boolean;
}

/** Per class: the plan of its properties; `null` for a class without validation metadata (an unknown value). */
const plans = new Map<unknown, PropertyPlan[] | null>();

function objectValid(object: object): boolean {
  const plan = planOf(object.constructor);
  if (plan === null) return false;
  for (const property of plan)
    if (!propertyValid(object, (object as Record<string, unknown>)[property.name], property)) return false;
  return true;
}

function propertyValid(object: object, value: unknown, property: PropertyPlan): boolean {
  for (const condition of property.conditions) if (!condition(object, value)) return true;
  if (!constraintsHold(object, value, property, property.defined)) return false;
  if (!constraintsHold(object, value, property, property.custom)) return false;
  return !property.nested || nestedValid(value);
}

function constraintsHold(object: object, value: unknown, property: PropertyPlan, constraints: Constraint[]): boolean {
  for (const constraint of constraints) {
    if (constraint.validateIf && !constraint.validateIf(object, value)) continue;
    const args: ValidationArguments = {
      targetName: property.targetName,
      property: property.name,
      object,
      value,
      constraints: constraint.constraints,
    };
    const values =
      constraint.each && (Array.isArray(value) || value instanceof Set || value instanceof Map)
        ? [...(value instanceof Map ? value.values() : value)]
        : [value];
    for (const item of values) {
      const result = constraint.validate(item, args);
      if (result instanceof Promise) throw new CannotTell();
      if (!result) return false;
    }
  }
  return true;
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

function planOf(target: unknown): PropertyPlan[] | null {
  if (plans.has(target)) return plans.get(target)!;
  const storage = getMetadataStorage();
  const metadatas = typeof target === 'function' ? storage.getTargetValidationMetadatas(target, '', false, false) : [];
  let plan: PropertyPlan[] | null = null;
  if (metadatas.length > 0) {
    plan = Object.entries(storage.groupByPropertyName(metadatas)).map(([name, list]) => {
      const property: PropertyPlan = {
        name,
        targetName: (target as { name: string }).name,
        conditions: [],
        defined: [],
        custom: [],
        nested: false,
      };
      for (const metadata of list) {
        if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) property.conditions.push(metadata.constraints[0]);
        else if (metadata.type === ValidationTypes.NESTED_VALIDATION) property.nested = true;
        else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION || metadata.type === ValidationTypes.IS_DEFINED) {
          for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
            if (constraint.async) continue; // validateSync skips async constraints
            const instance = constraint.instance;
            const entry = {
              validate: instance.validate.bind(instance),
              each: metadata.each,
              constraints: metadata.constraints,
              validateIf: metadata.validateIf,
            };
            (metadata.type === ValidationTypes.IS_DEFINED ? property.defined : property.custom).push(entry);
          }
        } else if (metadata.type !== ValidationTypes.WHITELIST) throw new CannotTell();
      }
      return property;
    });
  }
  plans.set(target, plan);
  return plan;
}
