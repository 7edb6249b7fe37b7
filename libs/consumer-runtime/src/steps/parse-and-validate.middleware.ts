import { CloudEvent, fromKafkaRecord, HOOKRAIL_HEADERS, isKnownEventType, validateEventData } from '@app/contracts';
import { KafkaMessage } from 'kafkajs';
import { EventValidationError, UnknownSchemaError } from '../errors';

export type Parsed =
  | { kind: 'event'; event: CloudEvent; replayCount: number }
  | { kind: 'ignored'; type: string }
  | { kind: 'poison'; error: Error; eventId?: string; type?: string };

/**
 * The first step for every message: CloudEvents Kafka binding → envelope, then the data against the contract of its
 * type. A failure is poison (dead-lettered at once). Types this group has no handler for are ignored: a topic
 * carries every event of its domain, and each group picks the ones it needs. A type without a schema is poison,
 * unless `passesUnvalidated` says the group takes it as it is (a handler of every type, ANY_EVENT_TYPE).
 */
export function parseAndValidate(
  message: KafkaMessage,
  handles: (type: string) => boolean,
  passesUnvalidated: (type: string) => boolean = () => false,
): Parsed {
  let event: CloudEvent;
  try {
    event = fromKafkaRecord(message);
  } catch (error) {
    return { kind: 'poison', error: error as Error, eventId: message.headers?.ce_id?.toString() };
  }
  if (!handles(event.type)) return { kind: 'ignored', type: event.type };
  if (!isKnownEventType(event.type) && passesUnvalidated(event.type))
    return { kind: 'event', event, replayCount: replayCountOf(message) };
  if (!isKnownEventType(event.type)) {
    return {
      kind: 'poison',
      error: new UnknownSchemaError(`no schema for event type ${event.type}`),
      eventId: event.id,
      type: event.type,
    };
  }
  const validation = validateEventData(event.type, event.data);
  if (!validation.ok)
    return {
      kind: 'poison',
      error: new EventValidationError(event.type, validation.fieldErrors),
      eventId: event.id,
      type: event.type,
    };
  return { kind: 'event', event: { ...event, data: validation.data }, replayCount: replayCountOf(message) };
}

function replayCountOf(message: KafkaMessage): number {
  const count = Number(message.headers?.[HOOKRAIL_HEADERS.replayCount]?.toString() ?? 0);
  return Number.isInteger(count) && count > 0 ? count : 0;
}
