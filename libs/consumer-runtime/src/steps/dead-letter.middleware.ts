import { HOOKRAIL_HEADERS } from '@app/contracts';
import { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import { errorClassName, errorMessage } from '../classify-error';
import { Failure } from './retry.middleware';

const MAX_STACK_LENGTH = 4000;
const MAX_MESSAGE_LENGTH = 1000;

export interface DeadLetterSource {
  group: string;
  topic: string;
  partition: number;
  message: KafkaMessage;
  eventId?: string;
}

export interface DeadLetterRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

/** The original key, value and headers, plus where it came from and why it died. */
export function buildDeadLetter(source: DeadLetterSource, failure: Failure): DeadLetterRecord {
  const stack = failure.error instanceof Error ? (failure.error.stack ?? '') : '';
  return {
    key: source.message.key,
    value: source.message.value,
    headers: {
      ...source.message.headers,
      [HOOKRAIL_HEADERS.dltTopic]: source.topic,
      [HOOKRAIL_HEADERS.dltPartition]: String(source.partition),
      [HOOKRAIL_HEADERS.dltOffset]: source.message.offset,
      [HOOKRAIL_HEADERS.dltGroup]: source.group,
      [HOOKRAIL_HEADERS.dltEventId]: source.eventId ?? '',
      [HOOKRAIL_HEADERS.dltErrorClass]: errorClassName(failure.error),
      [HOOKRAIL_HEADERS.dltErrorMessage]: errorMessage(failure.error).slice(0, MAX_MESSAGE_LENGTH),
      [HOOKRAIL_HEADERS.dltErrorStack]: stack.slice(0, MAX_STACK_LENGTH),
      [HOOKRAIL_HEADERS.dltAttempts]: String(failure.attempts),
      [HOOKRAIL_HEADERS.dltFirstFailureAt]: failure.firstFailureAt.toISOString(),
      [HOOKRAIL_HEADERS.dltLastFailureAt]: failure.lastFailureAt.toISOString(),
    },
  };
}

/**
 * Watermill's poison queue: the message goes to `<group>.dlt` (acks from all in-sync replicas).
 * The caller commits the offset only after this resolves; if it throws, the message stays where it is.
 */
export async function produceDeadLetter(producer: Producer, dltTopic: string, record: DeadLetterRecord): Promise<void> {
  await producer.send({ topic: dltTopic, acks: -1, messages: [record] });
}
