import { CE_HEADERS } from '@app/contracts';
import { ATTR, contextOf, inSpan, KAFKA, SpanKind, tracingOn } from '@app/tracing';
import { ParsedMessage } from './message';

/**
 * When the process traces: one consumer span `process <topic>` per attempt of a group at a message, child of the
 * relay's producer span (the message's `ce_traceparent`), active while the group's steps and handler run. Otherwise
 * the attempt alone.
 */
export function processSpan<T>(group: string, item: ParsedMessage, attempt: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return attempt();
  const { topic, partition, message, event } = item;
  const header = message.headers?.[CE_HEADERS.traceparent];
  const attributes = {
    [ATTR.messagingSystem]: KAFKA,
    [ATTR.operationType]: 'process',
    [ATTR.operationName]: 'process',
    [ATTR.destination]: topic,
    [ATTR.consumerGroup]: group,
    [ATTR.partition]: String(partition),
    [ATTR.kafkaOffset]: Number(message.offset),
    [ATTR.messageId]: event.id,
    ...(message.key ? { [ATTR.kafkaKey]: message.key.toString() } : {}),
  };
  const parent = contextOf(Buffer.isBuffer(header) ? header.toString() : header);
  return inSpan({ name: `process ${topic}`, kind: SpanKind.CONSUMER, parent, attributes }, () => attempt());
}

/** The steps of each attempt at a message inside the group's process span (processSpan), in either mode. */
export function traced(group: string) {
  return <T extends ParsedMessage, A extends unknown[], R>(next: (item: T, ...rest: A) => Promise<R>) =>
    (item: T, ...rest: A): Promise<R> =>
      processSpan(group, item, () => next(item, ...rest));
}
