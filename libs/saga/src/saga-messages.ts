import { ConsumerContext, PermanentError } from '@app/consumer-runtime';
import { CloudEvent, CLOUDEVENTS_SPEC_VERSION } from '@app/contracts';
import { toOutboxRow, writeOutboxRows } from '@app/outbox';
import { createHash } from 'node:crypto';
import { CompiledSaga, SagaPhase, sagaIdempotencyKey, SagaView } from './saga-definition';
import type { SagaOutcomeName } from './saga-transitions';

/** The CloudEvents extension attribute naming the topic a command's reply goes to (Kafka header `ce_replyto`). */
export const REPLY_TO = 'replyto';

/**
 * The CloudEvents extension attribute of an action command (Kafka header `ce_deadline`, RFC 3339): when the saga
 * stops waiting for it. Past it, the saga has sent it again or is compensating it, so a participant drops it unapplied
 * (`sagaActionExpired`) rather than let it hold up the compensation behind it on the same key.
 */
export const DEADLINE = 'deadline';

/**
 * A UUID derived from a name (the layout of a version 5 UUID over SHA-1), so that the same message built twice has
 * the same id and a consumer's dedupe sees one message.
 */
export function nameUuid(name: string): string {
  const hash = createHash('sha1').update(`hookrail-saga:${name}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A message on its way into the outbox. */
export interface OutgoingMessage {
  topic: string;
  event: CloudEvent<Record<string, unknown>>;
}

/**
 * The command of `send` for the transition that makes the saga's version `version`: its id is derived from the saga
 * and that version (each send, resends included, is a new message that a participant applies again), its
 * idempotency key from the saga, step and phase (the same for every send, so the participant's effect happens
 * once). Keyed by the correlation id, so a saga's commands stay in order. An action carries `deadline`; a
 * compensation none (it is never dropped).
 */
export function buildCommand(
  saga: CompiledSaga,
  view: SagaView<unknown>,
  send: { step: number; phase: SagaPhase },
  version: number,
  deadline?: Date,
): OutgoingMessage {
  const step = saga.steps[send.step];
  const command = send.phase === 'action' ? step.action : step.compensation!;
  return {
    topic: command.topic,
    event: {
      specversion: CLOUDEVENTS_SPEC_VERSION,
      id: nameUuid(`${view.id}:${version}:command`),
      source: saga.source,
      type: command.type,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      subject: view.correlationId,
      [REPLY_TO]: saga.replyTopic,
      ...(send.phase === 'action' && deadline && { [DEADLINE]: deadline.toISOString() }),
      data: {
        ...command.data(view),
        sagaId: view.id,
        idempotencyKey: sagaIdempotencyKey(view.id, step.name, send.phase),
      },
    },
  };
}

/** The outcome event of a saga that just ended, or undefined when the definition publishes none. */
export function buildOutcome(
  saga: CompiledSaga,
  view: SagaView<unknown>,
  outcome: SagaOutcomeName,
  reason: string | null,
  version: number,
): OutgoingMessage | undefined {
  const declared = saga[outcome];
  if (!declared) return undefined;
  return {
    topic: declared.topic,
    event: {
      specversion: CLOUDEVENTS_SPEC_VERSION,
      id: nameUuid(`${view.id}:${version}:outcome`),
      source: saga.source,
      type: declared.type,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      subject: view.correlationId,
      data: { ...declared.data(view, reason), sagaId: view.id },
    },
  };
}

/** What a participant needs of a command to answer it. */
export type SagaCommandEvent = CloudEvent<{ sagaId: string }>;

/**
 * True when an action command's deadline passed: the saga no longer waits for it (it sent it again, or compensates
 * it, its compensation behind it on the same key). A participant then drops it unapplied, at any attempt, so that an
 * action stuck on a failing call does not hold up its own compensation. Commands without a deadline never expire.
 */
export function sagaActionExpired(command: CloudEvent<unknown>, now = Date.now()): boolean {
  const deadline = command[DEADLINE];
  if (typeof deadline !== 'string') return false;
  const at = Date.parse(deadline);
  return Number.isFinite(at) && at <= now;
}

/**
 * For a participant's action handler, first thing: true (and a log line) when the command expired and must be
 * dropped unapplied, without a reply; the saga compensates the step, whatever the action did before.
 */
export function dropExpiredAction(command: SagaCommandEvent, ctx: Pick<ConsumerContext, 'logger'>): boolean {
  if (!sagaActionExpired(command)) return false;
  ctx.logger.info(
    { sagaId: command.data.sagaId, commandType: command.type, deadline: command[DEADLINE] },
    'saga action past its deadline: dropped unapplied (the saga has sent it again or compensates it)',
  );
  return true;
}

/**
 * The reply of a participant to `command`, on the topic the command names (`replyto`), keyed like the command. Its
 * id is derived from the command's id, so applying the same command twice yields the same reply.
 */
export function buildReply(
  command: SagaCommandEvent,
  type: string,
  source: string,
  data: Record<string, unknown>,
): OutgoingMessage {
  const topic = command[REPLY_TO];
  if (typeof topic !== 'string' || topic.length === 0)
    throw new PermanentError(`command ${command.id} (${command.type}) names no reply topic (ce_${REPLY_TO})`);
  return {
    topic,
    event: {
      specversion: CLOUDEVENTS_SPEC_VERSION,
      id: nameUuid(`${command.id}:reply`),
      source,
      type,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      subject: command.subject,
      data: { ...data, sagaId: command.data.sagaId, commandId: command.id },
    },
  };
}

/**
 * Queues a participant's reply for the outbox: written with every reply of the consumer's transaction (the one holding
 * its dedupe row) in one statement before it commits. Works whether the group applies records in batches or by key.
 */
export function queueSagaReply(
  ctx: Pick<ConsumerContext, 'write'>,
  command: SagaCommandEvent,
  type: string,
  source: string,
  data: Record<string, unknown>,
): void {
  const reply = buildReply(command, type, source, data);
  ctx.write(writeOutboxRows, toOutboxRow(reply.topic, reply.event));
}
