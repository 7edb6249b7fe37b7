import {
  CE_HEADERS,
  CloudEvent,
  fromKafkaRecord,
  HOOKRAIL_HEADERS,
  isKnownEventType,
  validateEventData,
} from '@app/contracts';
import { KafkaMessage } from 'kafkajs';
import { EventValidationError, UnknownSchemaError } from '../errors';
import { ANY_EVENT_TYPE } from '../handler';
import { GroupRetryHooks } from '../retry-hooks';
import { CompiledHandler, HandledMessage, Reading } from './message';
import { Failure } from './retry.middleware';
import { Delivery, MessageHandler, MessageOutcome } from './step';

export type Parsed =
  | { kind: 'event'; event: CloudEvent; replayCount: number }
  | { kind: 'ignored'; type: string }
  | { kind: 'poison'; error: Error; eventId?: string; type?: string };

/**
 * The first step for every message: CloudEvents Kafka binding → envelope (its `id` hookrail's: `ce_hookrailid`, else
 * `ce_id`), then the data against the contract of its
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
    const eventId = message.headers?.[CE_HEADERS.hookrailid] ?? message.headers?.[CE_HEADERS.id];
    return { kind: 'poison', error: error as Error, eventId: eventId?.toString() };
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

/** The replay number a message carries (`hookrail_replay_count`); 0 when it is not a replay. */
export function replayCountOf(message: KafkaMessage): number {
  const count = Number(message.headers?.[HOOKRAIL_HEADERS.replayCount]?.toString() ?? 0);
  return Number.isInteger(count) && count > 0 ? count : 0;
}

/** Reads a message for one group's handlers; made once per group. */
export type MessageReader = (topic: string, partition: number, message: KafkaMessage) => Reading;

/** The reader of a group: the handler of the event's type, else its handler of every type (ANY_EVENT_TYPE), if any. */
export function readerOf(handlers: ReadonlyMap<string, CompiledHandler>): MessageReader {
  const anyType = handlers.get(ANY_EVENT_TYPE);
  const handlerOf = (type: string) => handlers.get(type) ?? anyType;
  const handles = (type: string) => handlerOf(type) !== undefined;
  const passesUnvalidated = (type: string) => anyType !== undefined && !handlers.has(type);
  return (topic, partition, message) => {
    const parsed = parseAndValidate(message, handles, passesUnvalidated);
    if (parsed.kind !== 'event') return parsed;
    const { event, replayCount } = parsed;
    return { kind: 'event', topic, partition, message, event, replayCount, handler: handlerOf(event.type)! };
  };
}

/** The failure of a message that is poison: one attempt, given up on at once. */
export function poisonFailure(error: Error): Failure {
  const now = new Date();
  return { error, errorClass: 'poison', attempts: 1, firstFailureAt: now, lastFailureAt: now };
}

/** The event id and type a message is dead-lettered and counted under, as far as it parsed. */
export function identityOf(parsed: Parsed | Reading): { eventId?: string; type: string } {
  if (parsed.kind === 'event') return { eventId: parsed.event.id, type: parsed.event.type };
  if (parsed.kind === 'poison') return { eventId: parsed.eventId, type: parsed.type ?? 'unknown' };
  return { type: parsed.type };
}

/**
 * The parse step, first on a message's walk: an event goes on to its handler's steps; a type the group ignores is
 * done; poison is given up on at once (one log line, no retries).
 */
export function parse(deps: { read: MessageReader; hooks: Pick<GroupRetryHooks, 'log'> }) {
  return (next: (handled: HandledMessage, delivery: Delivery) => Promise<MessageOutcome>): MessageHandler =>
    async (delivery) => {
      const reading = (delivery.reading ??= deps.read(delivery.topic, delivery.partition, delivery.message));
      if (reading.kind === 'event') return next(reading, delivery);
      if (reading.kind === 'ignored') return { kind: 'done', value: 'ignored', attempts: 0 };
      const failure = poisonFailure(reading.error);
      deps.hooks.log({ ...delivery, eventId: reading.eventId }, failure, { retry: false });
      return { kind: 'gave-up', failure };
    };
}
