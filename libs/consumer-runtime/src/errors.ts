import { FieldError } from '@app/contracts';

/**
 * A failure that no retry can fix: the handler declares a business rule broken (an unknown order, a currency the
 * ledger does not keep). The message is dead-lettered at once.
 */
export class PermanentError extends Error {
  override name = 'PermanentError';
}

/** The message's data does not match its event type's schema. Poison: dead-lettered at once. */
export class EventValidationError extends PermanentError {
  override name = 'EventValidationError';
  constructor(
    readonly type: string,
    readonly fieldErrors: FieldError[],
  ) {
    super(`invalid ${type}: ${fieldErrors.map((error) => `${error.field}: ${error.errors.join(', ')}`).join('; ')}`);
  }
}

/** A handler exists for the type but the contracts have no schema to validate it with. */
export class UnknownSchemaError extends PermanentError {
  override name = 'UnknownSchemaError';
}

/**
 * An external dependency (an email provider, a model, a partner's API) cannot answer now: its 5xx, 429, a timeout, a
 * refused connection. Transient whatever the message; `dependency` names what is down, so that one outage is seen
 * once, and `retryAfterMs` carries the dependency's own `Retry-After` when it sent one.
 */
export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';
  constructor(
    readonly dependency: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
