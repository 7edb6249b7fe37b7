import { schemaId } from '../dataschema';
import { EVENT_TYPES } from '../event-registry';
import { dltTopic, replayTopic } from '../topics';
import { asyncApiDocument } from './asyncapi.document';
import { CatalogChannel, catalogChannels, CatalogGroup } from './catalog-channels';
import { ContractDocs } from './contract-docs';
import { eventSchemas } from './event-schemas';
import { JsonSchema } from './json-schema';

/** The brokers of the committed document: the development broker `npm start` runs. */
export const DEVELOPMENT_BROKERS = ['127.0.0.1:9092'];

export interface CatalogInput {
  version: string;
  groups: readonly CatalogGroup[];
  /** Group id of the dead-letter store, which reads every `<group>.dlt`. */
  deadLetterStoreGroup: string;
  /** The contract classes' doc comments: each type's description, source and example (required of every type). */
  docs: ContractDocs;
}

/** What the console and other tools list: topics, types and versions, groups and owners (`contracts/catalog.json`). */
export interface CatalogSummary {
  version: string;
  types: Array<{
    type: string;
    name: string;
    version: number | null;
    description?: string;
    /** The `ce_dataschema` of its events: the `$id` of its schema. */
    dataschema: string;
    topics: string[];
    consumers: Array<{ group: string; owner?: CatalogGroup['owner'] }>;
  }>;
  topics: CatalogChannel[];
  groups: Array<CatalogGroup & { deadLetterTopic: string; replayTopic: string }>;
}

/** `shop.order.placed.v1` → name `shop.order.placed`, version 1. */
export function parseVersionedType(type: string): { name: string; version: number | null } {
  const match = /^(.+)\.v(\d+)$/.exec(type);
  return match ? { name: match[1], version: Number(match[2]) } : { name: type, version: null };
}

/**
 * Every file of the catalogue, by path under `contracts/`: one JSON Schema per event type and version
 * (`schemas/<type>.json`), the AsyncAPI document (`asyncapi.json`) and the summary (`catalog.json`). Pure and
 * deterministic: the same contracts and groups give the same bytes, so a stale committed catalogue is a diff.
 */
export function catalogFiles(input: CatalogInput): Record<string, string> {
  const schemas = eventSchemas(input.docs);
  const types = Object.keys(schemas);
  const sources = Object.fromEntries(types.map((type) => [type, input.docs[EVENT_TYPES[type].name].source!]));
  const channels = catalogChannels(types, input.groups, input.deadLetterStoreGroup);
  const files: Record<string, string> = {};
  for (const [type, schema] of Object.entries(schemas)) files[`schemas/${type}.json`] = json(schema);
  files['asyncapi.json'] = json(
    asyncApiDocument({ version: input.version, brokers: DEVELOPMENT_BROKERS, schemas, sources, channels }),
  );
  files['catalog.json'] = json(catalogSummary(input, schemas, channels));
  return files;
}

function catalogSummary(
  input: CatalogInput,
  schemas: Record<string, JsonSchema>,
  channels: CatalogChannel[],
): CatalogSummary {
  const groups = [...input.groups].sort((a, b) => a.group.localeCompare(b.group));
  return {
    version: input.version,
    types: Object.keys(schemas).map((type) => ({
      type,
      ...parseVersionedType(type),
      ...(typeof schemas[type].description === 'string' ? { description: schemas[type].description as string } : {}),
      dataschema: schemaId(type),
      topics: channels.filter((c) => c.kind === 'events' && c.types.includes(type)).map((c) => c.topic),
      consumers: groups
        .filter((group) => group.handles.includes(type))
        .map((group) => ({ group: group.group, owner: group.owner })),
    })),
    topics: channels,
    groups: groups.map((group) => ({
      ...group,
      handles: [...group.handles].sort(),
      deadLetterTopic: dltTopic(group.group),
      replayTopic: replayTopic(group.group),
    })),
  };
}

/** The summary as a deployment serves it: under a namespace, every topic name with the prefix (group names stay). */
export function namespacedSummary(summary: CatalogSummary, namespace: string): CatalogSummary & { namespace: string } {
  const prefix = (topic: string) => `${namespace}${topic}`;
  return {
    ...summary,
    namespace,
    types: summary.types.map((entry) => ({ ...entry, topics: entry.topics.map(prefix) })),
    topics: summary.topics.map((channel) => ({ ...channel, topic: prefix(channel.topic) })),
    groups: summary.groups.map((group) => ({
      ...group,
      topics: group.topics.map(prefix),
      deadLetterTopic: prefix(group.deadLetterTopic),
      replayTopic: prefix(group.replayTopic),
    })),
  };
}

function json(value: JsonSchema | object): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
