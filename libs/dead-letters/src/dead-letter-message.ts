import { CE_HEADERS, HOOKRAIL_HEADERS } from '@app/contracts/light';
import { IHeaders, KafkaMessage } from 'kafkajs';

/** A dead letter as read from `<group>.dlt`: the original message plus where it came from and why it died. */
export interface IncomingDeadLetter {
  /** The id the runtime gave it (groups that park keys), else null: the store makes one. */
  id: string | null;
  group: string;
  eventId: string | null;
  type: string | null;
  key: string | null;
  originalTopic: string;
  originalPartition: number;
  originalOffset: string;
  dltTopic: string;
  dltPartition: number;
  dltOffset: string;
  replayTopic: string;
  payload: Buffer | null;
  /** The original headers, without the dead-letter and replay headers. */
  headers: Record<string, string>;
  errorClass: string;
  errorMessage: string;
  errorStack: string | null;
  attempts: number;
  firstFailedAt: Date | null;
  deadAt: Date;
  /** The replay count the failed message carried (0 unless it was a replay). */
  replayCount: number;
  /** Set when the failed message was a replay of a row of ours. */
  replayOf: string | null;
}

/** Where a DLT message was read, and the replay topic of the group it belongs to. */
export interface DltSource {
  topic: string;
  partition: number;
  replayTopic: string;
  /** The group whose DLT this is; used when the message lacks the group header. */
  group: string;
}

const OWN_HEADERS = new Set<string>(Object.values(HOOKRAIL_HEADERS));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const raw = headers?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined ? undefined : value.toString();
}

function date(value: string | undefined): Date | null {
  if (!value) return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

function nonNegativeInt(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : fallback;
}

/** A message's headers as text, without the ones hookrail adds (dead-letter and replay headers). */
export function originalHeaders(headers: IHeaders | undefined): Record<string, string> {
  const original: Record<string, string> = {};
  for (const name of Object.keys(headers ?? {})) {
    if (OWN_HEADERS.has(name)) continue;
    const value = headerText(headers, name);
    if (value !== undefined) original[name] = value;
  }
  return original;
}

/**
 * Reads the headers the consumer runtime writes on a dead letter (HOOKRAIL_HEADERS). Tolerant: a dead letter is
 * indexed even when a header is missing, with the DLT's own coordinates standing in for the original ones.
 */
export function parseDeadLetter(message: KafkaMessage, source: DltSource): IncomingDeadLetter {
  const h = (name: string) => headerText(message.headers, name);
  const lastFailure = date(h(HOOKRAIL_HEADERS.dltLastFailureAt));
  const replayOf = h(HOOKRAIL_HEADERS.deadLetterId);
  const id = h(HOOKRAIL_HEADERS.dltId);
  return {
    id: id && UUID.test(id) ? id : null,
    group: h(HOOKRAIL_HEADERS.dltGroup) || source.group,
    eventId: h(HOOKRAIL_HEADERS.dltEventId) || h(CE_HEADERS.hookrailid) || h(CE_HEADERS.id) || null,
    type: h(CE_HEADERS.type) ?? null,
    key: message.key?.toString() ?? null,
    originalTopic: h(HOOKRAIL_HEADERS.dltTopic) || source.topic,
    originalPartition: nonNegativeInt(h(HOOKRAIL_HEADERS.dltPartition), source.partition),
    originalOffset: /^\d+$/.test(h(HOOKRAIL_HEADERS.dltOffset) ?? '') ? h(HOOKRAIL_HEADERS.dltOffset)! : message.offset,
    dltTopic: source.topic,
    dltPartition: source.partition,
    dltOffset: message.offset,
    replayTopic: source.replayTopic,
    payload: message.value,
    headers: originalHeaders(message.headers),
    errorClass: h(HOOKRAIL_HEADERS.dltErrorClass) || 'unknown',
    errorMessage: h(HOOKRAIL_HEADERS.dltErrorMessage) ?? '',
    errorStack: h(HOOKRAIL_HEADERS.dltErrorStack) || null,
    attempts: nonNegativeInt(h(HOOKRAIL_HEADERS.dltAttempts), 1),
    firstFailedAt: date(h(HOOKRAIL_HEADERS.dltFirstFailureAt)),
    deadAt: lastFailure ?? new Date(Number(message.timestamp) || Date.now()),
    replayCount: nonNegativeInt(h(HOOKRAIL_HEADERS.replayCount), 0),
    replayOf: replayOf && UUID.test(replayOf) ? replayOf : null,
  };
}

/** The message a replay sends: the original key, value and headers, the raised replay count, and the row's id. */
export function replayMessage(row: {
  id: string;
  key: string | null;
  payload: Buffer | null;
  headers: Record<string, string>;
  replayCount: number;
}) {
  return {
    key: row.key,
    value: row.payload,
    headers: {
      ...row.headers,
      [HOOKRAIL_HEADERS.replayCount]: String(row.replayCount),
      [HOOKRAIL_HEADERS.deadLetterId]: row.id,
    },
  };
}
