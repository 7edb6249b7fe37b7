import { isKnownEventType } from './event-registry';

/** `$id` of the schema of event type `t` in the catalogue: `urn:hookrail:event:<t>`. */
export const schemaId = (type: string): string => `urn:hookrail:event:${type}`;

/**
 * The CloudEvents `dataschema` of an event of `type`: its catalogue entry (the `$id` of `contracts/schemas/<type>.json`,
 * served at `GET /catalog/schemas/<type>`), for every registered type; none for a type hookrail has no contract for.
 */
export function dataSchemaOf(type: string): string | undefined {
  return isKnownEventType(type) ? schemaId(type) : undefined;
}
