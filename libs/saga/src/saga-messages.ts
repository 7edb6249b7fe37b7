import { ConsumerContext, PermanentError } from '@app/consumer-runtime';
import { CloudEvent, CLOUDEVENTS_SPEC_VERSION } from '@app/contracts';
import { toOutboxRow, writeOutboxRows } from '@app/outbox';
import { createHash } from 'node:crypto';
import { CompiledSaga, SagaPhase, sagaIdempotencyKey, SagaView } from './saga-definition';

/** The CloudEvents extension attribute naming the topic a command's reply goes to (Kafka header `ce_replyto`). */
export const REPLY_TO = 'replyto';

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
 * once). Keyed by the correlation id, so a saga's commands stay in order.
 */
export function buildCommand(
  saga: CompiledSaga,
  view: SagaView<unknown>,
  send: { step: number; phase: SagaPhase },
  version: number,
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
  outcome: 'completed' | 'compensated',
  reason: string | null,
  version: number,
): OutgoingMessage | undefined {
  const declared = outcome === 'completed' ? saga.completed : saga.compensated;
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
