import { CLOUDEVENTS_SPEC_VERSION, CloudEvent, HOOKRAIL_ID_ATTRIBUTE } from './cloudevent';
import { dataSchemaOf } from './dataschema';
import { CE_HEADERS } from './headers';

/** A Kafka record as hookrail writes it: CloudEvents Kafka protocol binding, binary content mode. */
export interface KafkaRecord {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** The CloudEvents 1.0 context attributes and `data`: everything else on an event is an extension. */
export const CLOUDEVENTS_ATTRIBUTES: readonly string[] = [
  'specversion',
  'id',
  'source',
  'type',
  'time',
  'subject',
  'dataschema',
  'datacontenttype',
  'data',
];
/** What the binding maps itself: the core attributes, hookrail's id and the producer's. */
const MAPPED = new Set([...CLOUDEVENTS_ATTRIBUTES, HOOKRAIL_ID_ATTRIBUTE, 'producerId']);

/**
 * CloudEvent → Kafka record: data is the value, each attribute a `ce_` header, the subject (aggregate id) the key.
 * `ce_id` is the producer's id when the event has one, else hookrail's; `ce_hookrailid` is always hookrail's.
 * `ce_dataschema` names the type's catalogue entry when hookrail has a contract for the type (whatever the event
 * said), else the event's own `dataschema`, if any.
 */
export function toKafkaRecord(event: CloudEvent): KafkaRecord {
  const headers: Record<string, string> = {
    [CE_HEADERS.specversion]: event.specversion,
    [CE_HEADERS.id]: event.producerId ?? event.id,
    [CE_HEADERS.hookrailid]: event.id,
    [CE_HEADERS.source]: event.source,
    [CE_HEADERS.type]: event.type,
    [CE_HEADERS.time]: event.time,
    [CE_HEADERS.contentType]: event.datacontenttype,
  };
  if (event.subject) headers[CE_HEADERS.subject] = event.subject;
  const dataschema = dataSchemaOf(event.type) ?? event.dataschema;
  if (dataschema) headers[CE_HEADERS.dataschema] = dataschema;
  for (const [name, value] of Object.entries(event)) {
    if (!MAPPED.has(name) && value !== undefined && value !== null) headers[`ce_${name}`] = String(value);
  }
  // The CloudEvents Kafka binding: the partitionkey extension is the record's key; without one, the subject, else
  // hookrail's id: unique, where a producer's id is unique only within its source (two sources' "42" must not share
  // a key, and so a parked key, in a group that keeps key order).
  const key = typeof event.partitionkey === 'string' && event.partitionkey ? event.partitionkey : event.subject;
  return { key: key ?? event.id, value: JSON.stringify(event.data), headers };
}

export class MalformedRecordError extends Error {
  override name = 'MalformedRecordError';
}

type RawHeaders = Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined;

function header(headers: RawHeaders, name: string): string | undefined {
  const raw = headers?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined ? undefined : value.toString();
}

/**
 * Kafka record → CloudEvent; a record that is not a binary-mode CloudEvent with JSON data is malformed (poison).
 * Its `id` is hookrail's (`ce_hookrailid`, else `ce_id`: a record from before hookrailid, or another writer's), its
 * `producerId` the `ce_id` when that differs.
 */
export function fromKafkaRecord(record: {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  headers?: RawHeaders;
}): CloudEvent {
  const required = ['specversion', 'id', 'source', 'type'] as const;
  const attributes: Record<string, string> = {};
  for (const name of required) {
    const value = header(record.headers, `ce_${name}`);
    if (!value) throw new MalformedRecordError(`missing header ce_${name}`);
    attributes[name] = value;
  }
  if (attributes.specversion !== CLOUDEVENTS_SPEC_VERSION)
    throw new MalformedRecordError(`unsupported specversion ${attributes.specversion}`);
  let data: unknown;
  try {
    data = JSON.parse(record.value?.toString() ?? 'null');
  } catch {
    throw new MalformedRecordError('value is not JSON');
  }
  const extensions: Record<string, string> = {};
  for (const name of Object.keys(record.headers ?? {})) {
    if (!name.startsWith('ce_')) continue;
    const attribute = name.slice(3);
    if (!MAPPED.has(attribute)) extensions[attribute] = header(record.headers, name) as string;
  }
  const id = header(record.headers, CE_HEADERS.hookrailid) || attributes.id;
  return {
    ...extensions,
    specversion: CLOUDEVENTS_SPEC_VERSION,
    id,
    ...(id === attributes.id ? {} : { producerId: attributes.id }),
    source: attributes.source,
    type: attributes.type,
    time: header(record.headers, CE_HEADERS.time) ?? new Date(0).toISOString(),
    datacontenttype: 'application/json',
    // A record without ce_subject whose key is not a partitionkey was keyed by its subject (a record from before).
    subject:
      header(record.headers, CE_HEADERS.subject) ??
      (extensions.partitionkey === undefined ? (record.key?.toString() ?? undefined) : undefined),
    ...(header(record.headers, CE_HEADERS.dataschema) ? { dataschema: header(record.headers, CE_HEADERS.dataschema) } : {}),
    data,
  };
}
