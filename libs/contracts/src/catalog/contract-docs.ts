/**
 * What a contract class's doc comments say, for the catalogue: the class's comment (its description), its `@source`
 * tag (who publishes the type), its `@example` tag (one message's data, as JSON), and each property's comment. Read
 * from the source files by the export (`scripts/contracts/contract-docs.reader.ts`): the comments are the one place
 * a contract is described.
 */
export interface ContractDoc {
  description?: string;
  source?: string;
  example?: unknown;
  /** Property name → its description. */
  properties: Readonly<Record<string, string>>;
}

/** By class name. */
export type ContractDocs = Readonly<Record<string, ContractDoc>>;

type AnyClass = abstract new (...args: never[]) => object;

/** The description of `property` of `target`: from the class that declares it, the nearest one up the chain. */
export function propertyDescription(docs: ContractDocs, target: AnyClass, property: string): string | undefined {
  for (let current: unknown = target; typeof current === 'function' && current !== Function.prototype; ) {
    const description = docs[(current as AnyClass).name]?.properties[property];
    if (description) return description;
    current = Object.getPrototypeOf(current);
  }
  return undefined;
}
