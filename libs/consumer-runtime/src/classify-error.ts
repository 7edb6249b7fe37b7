import { MalformedRecordError } from '@app/contracts';
import { isDatabaseUnavailable, isTransactionConflict } from '@app/db';
import { DependencyUnavailableError, PermanentError } from './errors';

/**
 * - `poison`: retrying cannot help (malformed record, schema violation, declared permanent): dead-letter now.
 * - `unavailable`: our own database is down; every message would fail the same way, so dead-lettering them would
 *   empty the topic into the DLQ. Retried without a limit until the database is back.
 * - `conflict`: our transaction lost a race with another one (a deadlock, a serialization failure): nothing about
 *   the message, and running it again succeeds once the other transaction is through. Retried without a limit, with
 *   the backoff's jitter (hot rows under many partitions, e.g. a popular SKU's stock, meet this under load).
 * - `dependency`: an external dependency cannot answer now (a `DependencyUnavailableError`: a provider's 5xx, 429,
 *   timeout or refused connection; or Kafka refusing a produce inside a handler). Retried up to the group's long
 *   ceiling, and counted by the group's circuit breaker for that dependency.
 * - `transient`: anything else, an error nobody classified; retried a few times, then dead-lettered.
 */
export type ErrorClass = 'poison' | 'unavailable' | 'conflict' | 'dependency' | 'transient';

/** The dependency name of Kafka when a handler's own produce fails. */
export const KAFKA_DEPENDENCY = 'kafka';

const KAFKA_UNAVAILABLE = new Set([
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSTimeout',
  'KafkaJSLockTimeout',
]);

export function classifyError(error: unknown, isPermanent?: (error: unknown) => boolean): ErrorClass {
  if (error instanceof MalformedRecordError || error instanceof PermanentError) return 'poison';
  if (isPermanent?.(error)) return 'poison';
  if (isDatabaseUnavailable(error)) return 'unavailable';
  if (isTransactionConflict(error)) return 'conflict';
  if (dependencyOf(error)) return 'dependency';
  return 'transient';
}

/** The dependency a failure waits on: the one a `DependencyUnavailableError` names, or Kafka; else undefined. */
export function dependencyOf(error: unknown): string | undefined {
  if (error instanceof DependencyUnavailableError) return error.dependency;
  if (error instanceof Error && error.name.startsWith('KafkaJS')) {
    const retriable = (error as { retriable?: unknown }).retriable === true;
    if (retriable || KAFKA_UNAVAILABLE.has(error.name)) return KAFKA_DEPENDENCY;
  }
  return undefined;
}

/** The dependency's own `Retry-After`, in milliseconds, when it sent one. */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof DependencyUnavailableError ? error.retryAfterMs : undefined;
}

/** The name a dead letter and the status table record for an error (its class name, or the thrown value's type). */
export function errorClassName(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== 'Error' ? error.name : error.constructor.name;
  return typeof error;
}

export { errorMessage } from '@app/logger';
