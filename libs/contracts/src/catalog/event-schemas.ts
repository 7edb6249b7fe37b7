import { schemaId } from '../dataschema';
import { EVENT_TYPES } from '../event-registry';
import { ContractDocs } from './contract-docs';
import { CatalogError, contractSchema } from './contract-schema.mapper';
import { JsonSchema } from './json-schema';

/**
 * The JSON Schema (2020-12) of the data of every registered event type, by type, sorted: what a message's value holds.
 * Every type in EVENT_TYPES is included, so a type registered on another branch is exported after the merge. With
 * `docs`, each type's description and its one example come from its class's doc comment, and a class without either
 * is a CatalogError naming it.
 */
export function eventSchemas(docs?: ContractDocs): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.keys(EVENT_TYPES)
      .sort()
      .map((type) => {
        const target = EVENT_TYPES[type];
        const doc = docs?.[target.name];
        if (docs && (!doc?.description || doc.example === undefined || !doc.source))
          throw new CatalogError(
            `${target.name} (${type}) needs a doc comment that describes the event, with an @source tag (who ` +
              'publishes it) and an @example tag (the data of one message, as JSON)',
          );
        return [
          type,
          contractSchema(target, {
            id: schemaId(type),
            title: type,
            description: doc?.description,
            examples: doc ? [doc.example] : undefined,
            docs,
          }),
        ];
      }),
  );
}
