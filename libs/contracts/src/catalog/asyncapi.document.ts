import { createHash } from 'node:crypto';
import { schemaId } from '../dataschema';
import { CatalogChannel, CatalogOwner } from './catalog-channels';
import { cloudEventHeadersSchema, deadLetterHeadersSchema } from './cloudevent-headers';
import { JsonSchema } from './json-schema';

const KAFKA_BINDING_VERSION = '0.5.0';
/**
 * The one schema dialect of the document: every message's headers and payload are JSON Schema 2020-12, like the
 * files in contracts/schemas (AsyncAPI 3.0 Multi Format Schema Objects).
 */
export const SCHEMA_FORMAT = 'application/schema+json;version=draft-2020-12';
const UNREGISTERED = 'unregisteredEvent';
const DEAD_LETTER = 'deadLetter';

export interface AsyncApiInput {
  /** hookrail's version (package.json). */
  version: string;
  /** Kafka bootstrap brokers, `host:port`. */
  brokers: readonly string[];
  /** JSON Schema (2020-12) of each registered event type's data, by type, with its description and example. */
  schemas: Readonly<Record<string, JsonSchema>>;
  /** Who publishes each type (its CloudEvents `source`), by type: the message's description and example say it. */
  sources?: Readonly<Record<string, string>>;
  channels: readonly CatalogChannel[];
}

export type AsyncApiDocument = JsonSchema & { channels: Record<string, JsonSchema> };

const DESCRIPTION = [
  'Every message hookrail publishes is a CloudEvent in the Kafka protocol binding, binary content mode: the value is',
  'the event data as JSON, each attribute a `ce_<name>` header, `content-type: application/json`, and the key the',
  'aggregate id (`ce_subject`; the event id when there is none), so events of one aggregate stay in order on one',
  'partition. `ce_id` with `ce_source` is the identity the producer gave the event, passed on unchanged;',
  "`ce_hookrailid` is hookrail's own id for it, on every message. Delivery is at least once: dedupe on",
  '`ce_hookrailid`.',
  '',
  'Types are versioned (`shop.order.placed.v1`): a version changes only in ways both old and new readers accept',
  '(optional fields come and go; bounds, enums and patterns stay); an incompatible change is a new type (`…v2`).',
  'Subscribe to the types you understand and ignore the others.',
  '',
  'Each consumer group `G` has its own dead-letter topic `G.dlt` (the original message plus `hookrail_dlt_*`',
  'headers saying where and why it failed) and its own replay topic `G.replay`, which only `G` reads: a replay',
  'never reaches another group.',
].join('\n');

/** The AsyncAPI 3.0 document of the whole system, from the catalogue's channels and the contracts' schemas. */
export function asyncApiDocument(input: AsyncApiInput): AsyncApiDocument {
  const channels: Record<string, JsonSchema> = {};
  const operations: Record<string, JsonSchema> = {};
  const usedTypes = new Set<string>();
  let usesUnregistered = false;
  let usesDeadLetter = false;

  for (const channel of input.channels) {
    const messageKeys = messagesOf(channel);
    messageKeys.forEach((key) => (key === UNREGISTERED ? (usesUnregistered = true) : undefined));
    if (channel.kind === 'dead-letters') usesDeadLetter = true;
    channel.types.forEach((type) => usedTypes.add(type));
    channels[channel.topic] = {
      address: channel.topic,
      title: channel.topic,
      description: channelDescription(channel),
      messages: Object.fromEntries(messageKeys.map((key) => [key, { $ref: `#/components/messages/${key}` }])),
      bindings: { kafka: { topic: channel.topic, bindingVersion: KAFKA_BINDING_VERSION } },
      'x-hookrail-kind': channel.kind,
      ...(channel.group ? { 'x-hookrail-group': channel.group } : {}),
      ...(channel.owner ? { 'x-hookrail-owner': channel.owner } : {}),
      'x-hookrail-consumers': channel.consumers,
    };
    Object.assign(operations, operationsOf(channel, messageKeys));
  }

  const messages: Record<string, JsonSchema> = {};
  for (const type of Object.keys(input.schemas).sort())
    messages[type] = eventMessage(type, input.schemas[type], input.sources?.[type]);
  if (usesUnregistered) messages[UNREGISTERED] = unregisteredMessage();
  if (usesDeadLetter) messages[DEAD_LETTER] = deadLetterMessage();

  return {
    asyncapi: '3.0.0',
    info: { title: 'hookrail events', version: input.version, description: DESCRIPTION },
    defaultContentType: 'application/json',
    servers: serversOf(input.brokers),
    channels,
    operations,
    components: { messages },
  };
}

/** Where a served document is: its brokers, and the namespace (`KAFKA_NAMESPACE`) in front of its topics and groups. */
export interface CatalogDeployment {
  brokers: readonly string[];
  namespace: string;
}

/**
 * The committed document as a deployment serves it: its brokers as the servers and, under a namespace, every
 * channel's address and Kafka topic and every group id with the prefix (channel and operation ids stay as committed,
 * so references into the document hold).
 */
export function forDeployment(document: AsyncApiDocument, deployment: CatalogDeployment): AsyncApiDocument {
  const { namespace } = deployment;
  const served: AsyncApiDocument = { ...document, servers: serversOf(deployment.brokers) };
  if (!namespace) return served;
  const prefix = (name: unknown) => `${namespace}${String(name)}`;
  served.info = { ...(document.info as JsonSchema), 'x-hookrail-namespace': namespace };
  served.channels = Object.fromEntries(
    Object.entries(document.channels).map(([id, channel]) => {
      const kafka = (channel.bindings as { kafka: JsonSchema }).kafka;
      return [
        id,
        {
          ...channel,
          address: prefix(channel.address),
          title: prefix(channel.title),
          bindings: { kafka: { ...kafka, topic: prefix(kafka.topic) } },
        },
      ];
    }),
  );
  served.operations = Object.fromEntries(
    Object.entries(document.operations as Record<string, JsonSchema>).map(([id, operation]) => {
      const kafka = (operation.bindings as { kafka?: { groupId?: { enum: string[] } } } | undefined)?.kafka;
      if (!kafka?.groupId) return [id, operation];
      const groupId = { ...kafka.groupId, enum: kafka.groupId.enum.map(prefix) };
      return [id, { ...operation, bindings: { kafka: { ...kafka, groupId } } }];
    }),
  );
  return served;
}

function serversOf(brokers: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(
    brokers.map((host, index) => [
      `broker-${index + 1}`,
      { host, protocol: 'kafka', description: 'A Kafka bootstrap broker.' },
    ]),
  );
}

function messagesOf(channel: CatalogChannel): string[] {
  if (channel.kind === 'dead-letters') return [DEAD_LETTER];
  if (channel.kind === 'events' && channel.types.length === 0) return [UNREGISTERED];
  return channel.types;
}

function channelDescription(channel: CatalogChannel): string {
  if (channel.kind === 'dead-letters')
    return `Dead letters of group ${channel.group}: messages it gave up on, with why. Read by the dead-letter store.`;
  if (channel.kind === 'replays')
    return `Replays for group ${channel.group} only (\`hookrail dlq replay\`): the original message, replay headers added.`;
  if (channel.types.length === 0)
    return 'Events without a registered schema (CloudEvents from POST /events of other types): routed, never dropped.';
  return `Events published by the relay from the outbox: ${channel.types.join(', ')}.`;
}

function operationsOf(channel: CatalogChannel, messageKeys: string[]): Record<string, JsonSchema> {
  const ref = { $ref: `#/channels/${channel.topic}` };
  const messageRefs = (keys: readonly string[]) =>
    keys.map((key) => ({ $ref: `#/channels/${channel.topic}/messages/${key}` }));
  const operations: Record<string, JsonSchema> = {};
  if (channel.kind === 'events') {
    operations[`publish.${channel.topic}`] = {
      action: 'send',
      channel: ref,
      summary: 'The relay publishes each committed outbox row (at least once, in commit order per key).',
      messages: messageRefs(messageKeys),
    };
  } else if (channel.kind === 'dead-letters') {
    operations[`${channel.group}.dead-letter`] = {
      action: 'send',
      channel: ref,
      summary: `Group ${channel.group} dead-letters a message it gave up on.`,
      messages: messageRefs(messageKeys),
    };
  } else {
    operations[`replay.${channel.group}`] = {
      action: 'send',
      channel: ref,
      summary: `An operator replays dead letters of group ${channel.group}.`,
      messages: messageRefs(messageKeys),
    };
  }
  for (const consumer of channel.consumers) {
    const handled = channel.kind === 'dead-letters' ? messageKeys : consumer.handles;
    operations[`${consumer.group}.receive.${channel.topic}`] = {
      action: 'receive',
      channel: ref,
      summary: receiveSummary(consumer.group, consumer.owner),
      ...(handled.length ? { messages: messageRefs(handled) } : {}),
      bindings: {
        kafka: { groupId: { type: 'string', enum: [consumer.group] }, bindingVersion: KAFKA_BINDING_VERSION },
      },
      ...(consumer.owner ? { 'x-hookrail-owner': consumer.owner } : {}),
    };
  }
  return operations;
}

function receiveSummary(group: string, owner?: CatalogOwner): string {
  return owner ? `Consumer group ${group} (${owner.team}, ${owner.contact}).` : `Consumer group ${group}.`;
}

const KEY = {
  type: 'string',
  description: 'The aggregate id (e.g. the order id): one aggregate, one partition, in order. The event id if none.',
};

/** A schema in the document's one dialect. */
const inFormat = (schema: JsonSchema): JsonSchema => ({ schemaFormat: SCHEMA_FORMAT, schema });

/**
 * The message of a registered type: its description (the contract class's doc comment, the first sentence its
 * summary), the CloudEvents headers, the payload (the type's schema, `$defs` inlined) and one example built from the
 * schema's example, with the headers such a message carries.
 */
function eventMessage(type: string, schema: JsonSchema, source: string | undefined): JsonSchema {
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const { examples: _examples, ...payload } = inlineDefinitions(schema);
  const example = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  return {
    name: type,
    title: type,
    summary: description ? firstSentence(description) : `A ${type} CloudEvent (Kafka binary content mode).`,
    ...(description ? { description: source ? `${description}\n\nPublished by \`${source}\`.` : description } : {}),
    contentType: 'application/json',
    headers: inFormat(cloudEventHeadersSchema(type)),
    payload: inFormat(payload),
    correlationId: {
      location: '$message.header#/ce_hookrailid',
      description: "hookrail's event id (its status URL, dead letters, deliveries): dedupe on it.",
    },
    bindings: { kafka: { key: KEY, bindingVersion: KAFKA_BINDING_VERSION } },
    ...(example !== undefined && source
      ? { examples: [{ name: 'example', summary: `One ${type} message.`, headers: exampleHeaders(type, source, example), payload: example }] }
      : {}),
    'x-hookrail-schema': `schemas/${type}.json`,
  };
}

function firstSentence(text: string): string {
  const paragraph = text.split('\n\n')[0];
  const end = paragraph.search(/\.(\s|$)/);
  return end === -1 ? paragraph : paragraph.slice(0, end + 1);
}

/**
 * The headers a message of `type` with data `example` carries, as hookrail makes it (its `ce_id` is its
 * `ce_hookrailid`); its id is derived from the type (stable output).
 */
function exampleHeaders(type: string, source: string, example: unknown): Record<string, string> {
  const hash = createHash('sha1').update(type).digest('hex');
  const subject = (example as { orderId?: unknown } | null)?.orderId;
  const id = `${hash.slice(0, 8)}-${hash.slice(8, 12)}-5${hash.slice(13, 16)}-a${hash.slice(17, 20)}-${hash.slice(20, 32)}`;
  return {
    ce_specversion: '1.0',
    ce_id: id,
    ce_hookrailid: id,
    ce_source: source,
    ce_type: type,
    ce_time: '2025-06-01T12:00:00.000Z',
    ...(typeof subject === 'string' ? { ce_subject: subject } : {}),
    ce_dataschema: schemaId(type),
    'content-type': 'application/json',
  };
}

function unregisteredMessage(): JsonSchema {
  return {
    name: UNREGISTERED,
    title: 'Event of a type without a registered schema',
    summary: 'A CloudEvent whose type hookrail has no contract for; its data is passed on unvalidated.',
    contentType: 'application/json',
    headers: inFormat(cloudEventHeadersSchema()),
    payload: inFormat({ description: 'The event data as received (any JSON).' }),
    bindings: { kafka: { key: KEY, bindingVersion: KAFKA_BINDING_VERSION } },
  };
}

function deadLetterMessage(): JsonSchema {
  return {
    name: DEAD_LETTER,
    title: 'Dead letter',
    summary: 'A message a consumer group gave up on: the original key, value and headers, plus why.',
    contentType: 'application/json',
    headers: inFormat(deadLetterHeadersSchema()),
    payload: inFormat({ description: "The original message's value, byte for byte (usually event data as JSON)." }),
    bindings: { kafka: { key: { type: 'string', description: "The original message's key." } } },
  };
}

/**
 * A 2020-12 contract schema as the AsyncAPI document holds it: its `$defs` inlined (a `#` pointer there would point
 * into the AsyncAPI document), without `$schema`, `$id` and `$defs`; the message's `schemaFormat` names the dialect.
 */
export function inlineDefinitions(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, $defs, ...rest } = schema;
  const defs = ($defs ?? {}) as Record<string, JsonSchema>;
  const inline = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, seen));
    if (typeof node !== 'object' || node === null) return node;
    const { $ref, ...others } = node as JsonSchema;
    if (typeof $ref === 'string' && $ref.startsWith('#/$defs/')) {
      const name = $ref.slice('#/$defs/'.length);
      if (seen.includes(name)) throw new Error(`schema ${String(schema.$id)}: ${name} refers to itself`);
      return { ...(inline(defs[name], [...seen, name]) as JsonSchema), ...(inline(others, seen) as JsonSchema) };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value, seen)]));
  };
  return inline(rest, []) as JsonSchema;
}
