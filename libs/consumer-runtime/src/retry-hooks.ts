import { KafkaMessage } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { GroupBreakers } from './breaker/group-breakers';
import { errorClassName, errorMessage } from './classify-error';
import { recordEventStatus } from './consumer-event-status.repository';
import { ConsumerMetrics } from './consumer-metrics';
import { describeFailure } from './steps/dead-letter.producer';
import { Failure, RetryDecision, RetryHooks } from './steps/retry.middleware';

/** Where a message is: its partition and offset, and its event id when it parsed. */
export interface MessageSource {
  topic: string;
  partition: number;
  message: KafkaMessage;
  eventId?: string;
}

/**
 * What the retry step does around each failed attempt of one group's message: the breaker of its dependency counts
 * it, the status row says `retrying` (and keeps when the failures began), one log line says what was decided, the
 * retries metric counts it, and short waits heartbeat while they last.
 */
export class GroupRetryHooks {
  constructor(
    private readonly deps: {
      group: string;
      dataSource: DataSource;
      logger: Logger;
      metrics: ConsumerMetrics;
      breakers: GroupBreakers;
    },
  ) {}

  for(
    source: MessageSource & { eventId: string; type: string },
    controls: { heartbeat(): Promise<void>; shouldStop(): boolean },
  ): RetryHooks {
    const { group, metrics, breakers } = this.deps;
    return {
      recorded: (failure) => this.record(source, failure),
      decided: (failure, decision) => {
        this.log(source, failure, decision);
        if (decision.retry) metrics.retries.inc({ group, type: source.type });
      },
      recovered: (dependency) => breakers.answered(dependency),
      wait: (ms) => waitHeartbeating(ms, controls),
    };
  }

  /** The breaker and the status row; returns the failure with the first failure time Postgres kept, if older. */
  private async record(source: MessageSource & { eventId: string }, failure: Failure): Promise<Failure> {
    const { group, dataSource, breakers, logger } = this.deps;
    if (failure.dependency) breakers.failed(failure, `${source.topic}|${source.partition}`);
    const firstFailedAt = await recordEventStatus(dataSource, {
      group,
      eventId: source.eventId,
      status: 'retrying',
      attempts: failure.attempts,
      lastError: describeFailure(failure.error),
      firstFailedAt: failure.firstFailureAt,
    }).catch((error: Error) => {
      logger.warn({ group, eventId: source.eventId, err: error.message }, 'could not record the retrying status');
      return null;
    });
    return firstFailedAt && firstFailedAt < failure.firstFailureAt
      ? { ...failure, firstFailureAt: firstFailedAt }
      : failure;
  }

  /** One line per failed attempt, with what was decided. */
  log(source: MessageSource, failure: Failure, decision: RetryDecision): void {
    this.deps.logger.warn(
      {
        group: this.deps.group,
        eventId: source.eventId,
        topic: source.topic,
        partition: source.partition,
        offset: source.message.offset,
        attempt: failure.attempts,
        errorClass: errorClassName(failure.error),
        err: errorMessage(failure.error),
        ...(failure.dependency && { dependency: failure.dependency }),
        willRetry: decision.retry,
        ...(decision.retry && { retryInMs: decision.delayMs }),
      },
      decision.retry ? 'attempt failed; will retry' : 'attempt failed; giving up',
    );
  }
}

/** Sleeps in slices short enough to keep heartbeating; false if the consumer started stopping meanwhile. */
async function waitHeartbeating(
  ms: number,
  controls: { heartbeat(): Promise<void>; shouldStop(): boolean },
): Promise<boolean> {
  const until = Date.now() + ms;
  while (!controls.shouldStop()) {
    const left = until - Date.now();
    if (left <= 0) return true;
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, 1000)));
    await controls.heartbeat();
  }
  return false;
}
