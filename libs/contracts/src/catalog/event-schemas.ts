import { EVENT_TYPES } from '../event-registry';
import { contractSchema } from './contract-schema.mapper';
import { JsonSchema } from './json-schema';

/** `$id` of the schema of event type `t`: `urn:hookrail:event:<t>`. */
export const schemaId = (type: string): string => `urn:hookrail:event:${type}`;

/**
 * The JSON Schema (2020-12) of the data of every registered event type, by type, sorted: what a message's value holds.
 * Every type in EVENT_TYPES is included, so a type registered on another branch is exported after the merge.
 */
export function eventSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.keys(EVENT_TYPES)
      .sort()
      .map((type) => [
        type,
        contractSchema(EVENT_TYPES[type], {
          id: schemaId(type),
          title: type,
          description: `The data of a ${type} CloudEvent: the Kafka message value, as JSON.`,
        }),
      ]),
  );
}
