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
