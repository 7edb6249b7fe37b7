import { MalformedRecordError } from '@app/contracts';
import { isDatabaseUnavailable } from '@app/db';
import { PermanentError } from './errors';

/**
 * - `poison`: retrying cannot help (malformed record, schema violation, declared permanent): dead-letter now.
 * - `unavailable`: our own database is down; every message would fail the same way, so dead-lettering them would
 *   empty the topic into the DLQ. Retried without an attempt limit until the database is back.
 * - `transient`: anything else; retried with backoff, dead-lettered after the last attempt.
 */
export type ErrorClass = 'poison' | 'unavailable' | 'transient';

export function classifyError(error: unknown, isPermanent?: (error: unknown) => boolean): ErrorClass {
  if (error instanceof MalformedRecordError || error instanceof PermanentError) return 'poison';
  if (isPermanent?.(error)) return 'poison';
  if (isDatabaseUnavailable(error)) return 'unavailable';
  return 'transient';
}

/** The name a dead letter and the status table record for an error (its class name, or the thrown value's type). */
export function errorClassName(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== 'Error' ? error.name : error.constructor.name;
  return typeof error;
}

export { errorMessage } from '@app/logger';
