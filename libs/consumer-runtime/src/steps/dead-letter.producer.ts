import { HOOKRAIL_HEADERS } from '@app/contracts';
import { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { backoffDelay, RetryPolicy } from '../backoff';
import { errorClassName, errorMessage } from '../classify-error';
import { recordEventStatus } from '../consumer-event-status.repository';
import { ConsumerMetrics } from '../consumer-metrics';
import { Failure } from './retry.middleware';

const MAX_STACK_LENGTH = 4000;
const MAX_MESSAGE_LENGTH = 1000;
/** Between tries of a dead letter the broker did not take: the partition waits meanwhile. */
const DLT_RETRY: RetryPolicy = { maxAttempts: Infinity, baseDelayMs: 500, maxDelayMs: 30_000 };

export interface DeadLetterSource {
  group: string;
  topic: string;
  partition: number;
  message: KafkaMessage;
  eventId?: string;
  /** The id its `dead_letters` row is to take (groups that park keys, for a message that is not a replay). */
  deadLetterId?: string;
}

export interface DeadLetterRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

/** The original key, value and headers, plus where it came from, why it died and how long it was tried. */
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
      [HOOKRAIL_HEADERS.dltRetriedForMs]: String(failure.lastFailureAt.getTime() - failure.firstFailureAt.getTime()),
      ...(failure.dependency && { [HOOKRAIL_HEADERS.dltDependency]: failure.dependency }),
      ...(source.deadLetterId && { [HOOKRAIL_HEADERS.dltId]: source.deadLetterId }),
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

/**
 * The dead-letter producer of a group: a message the group gave up on goes to `<group>.dlt`, then counts, logs and
 * records the event `dead`. Its answer decides the offset: true, the broker took it and the offset may move past the
 * message; false, the message stays uncommitted and its partition waits `retryDelayMs()` before it is tried again.
 */
export class DeadLetterProducer {
  private failures = 0;

  constructor(
    private readonly deps: {
      group: string;
      dltTopic: string;
      producer: Producer;
      dataSource: DataSource;
      logger: Logger;
      metrics: ConsumerMetrics;
    },
  ) {}

  async deadLetter(source: Omit<DeadLetterSource, 'group'> & { type: string }, failure: Failure): Promise<boolean> {
    const { group, dltTopic, producer, logger, metrics, dataSource } = this.deps;
    const { topic, partition, message, eventId, deadLetterId } = source;
    const fields = { group, eventId, topic, partition, offset: message.offset, dltTopic };
    try {
      await produceDeadLetter(
        producer,
        dltTopic,
        buildDeadLetter({ group, topic, partition, message, eventId, deadLetterId }, failure),
      );
    } catch (error) {
      this.failures++;
      logger.error(
        { ...fields, err: errorMessage(error) },
        'could not produce the dead letter; offset not committed, the message will be processed again',
      );
      return false;
    }
    this.failures = 0;
    metrics.deadLetters.inc({ group, type: source.type });
    logger.warn(
      {
        ...fields,
        errorClass: errorClassName(failure.error),
        attempts: failure.attempts,
        retriedForMs: failure.lastFailureAt.getTime() - failure.firstFailureAt.getTime(),
        ...(failure.dependency && { dependency: failure.dependency }),
      },
      'dead-lettered',
    );
    if (!eventId) return true;
    try {
      await recordEventStatus(dataSource, {
        group,
        eventId,
        status: 'dead',
        attempts: failure.attempts,
        lastError: describeFailure(failure.error),
      });
      return true;
    } catch (error) {
      // The status is how another copy of the event (the relay publishes at least once) knows it is dead already:
      // without it the offset stays, and the message is dead-lettered again later (the store keeps one row for it).
      this.failures++;
      logger.error(
        { ...fields, err: errorMessage(error) },
        'could not record the dead status; offset not committed, the message will be dead-lettered again',
      );
      return false;
    }
  }

  /** How long the partition waits before a dead letter the broker refused is tried again. */
  retryDelayMs(): number {
    return backoffDelay(this.failures, DLT_RETRY, () => 1);
  }
}

/** `<error class>: <message>`, as status rows and breaker rows show an error. */
export function describeFailure(error: unknown): string {
  return `${errorClassName(error)}: ${errorMessage(error)}`;
}
