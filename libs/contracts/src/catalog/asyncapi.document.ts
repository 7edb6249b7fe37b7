import { CatalogChannel, CatalogOwner } from './catalog-channels';
import { cloudEventHeadersSchema, deadLetterHeadersSchema } from './cloudevent-headers';
import { JsonSchema } from './json-schema';

const KAFKA_BINDING_VERSION = '0.5.0';
const UNREGISTERED = 'unregisteredEvent';
const DEAD_LETTER = 'deadLetter';

export interface AsyncApiInput {
  /** hookrail's version (package.json). */
  version: string;
  /** Kafka bootstrap brokers, `host:port`. */
  brokers: readonly string[];
  /** JSON Schema (2020-12) of each registered event type's data, by type. */
  schemas: Readonly<Record<string, JsonSchema>>;
  channels: readonly CatalogChannel[];
}

export type AsyncApiDocument = JsonSchema & { channels: Record<string, JsonSchema> };

const DESCRIPTION = [
  'Every message hookrail publishes is a CloudEvent in the Kafka protocol binding, binary content mode: the value is',
  'the event data as JSON, each attribute a `ce_<name>` header, `content-type: application/json`, and the key the',
  'aggregate id (`ce_subject`; the event id when there is none), so events of one aggregate stay in order on one',
  'partition. Delivery is at least once: dedupe on `ce_id`.',
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
  for (const type of Object.keys(input.schemas).sort()) messages[type] = eventMessage(type, input.schemas[type]);
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

/** The same document with other brokers as its servers (the ingress serves its own KAFKA_BROKERS). */
export function withBrokers(document: AsyncApiDocument, brokers: readonly string[]): AsyncApiDocument {
  return { ...document, servers: serversOf(brokers) };
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

function eventMessage(type: string, schema: JsonSchema): JsonSchema {
  return {
    name: type,
    title: type,
    summary: `A ${type} CloudEvent (Kafka binary content mode).`,
    contentType: 'application/json',
    headers: cloudEventHeadersSchema(type),
    payload: inlineDefinitions(schema),
    correlationId: { location: '$message.header#/ce_id', description: 'The event id: dedupe on it.' },
    bindings: { kafka: { key: KEY, bindingVersion: KAFKA_BINDING_VERSION } },
    'x-hookrail-schema': `schemas/${type}.json`,
  };
}

function unregisteredMessage(): JsonSchema {
  return {
    name: UNREGISTERED,
    title: 'Event of a type without a registered schema',
    summary: 'A CloudEvent whose type hookrail has no contract for; its data is passed on unvalidated.',
    contentType: 'application/json',
    headers: cloudEventHeadersSchema(),
    payload: { description: 'The event data as received (any JSON).' },
    bindings: { kafka: { key: KEY, bindingVersion: KAFKA_BINDING_VERSION } },
  };
}

function deadLetterMessage(): JsonSchema {
  return {
    name: DEAD_LETTER,
    title: 'Dead letter',
    summary: 'A message a consumer group gave up on: the original key, value and headers, plus why.',
    contentType: 'application/json',
    headers: deadLetterHeadersSchema(),
    payload: { description: "The original message's value, byte for byte (usually event data as JSON)." },
    bindings: { kafka: { key: { type: 'string', description: "The original message's key." } } },
  };
}

/**
 * A 2020-12 contract schema as the AsyncAPI document holds it: its `$defs` inlined (a `#` pointer there would point
 * into the AsyncAPI document), without `$schema`, `$id` and `$defs`. Contracts use only keywords that mean the same
 * in draft-07, the AsyncAPI schema format.
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
