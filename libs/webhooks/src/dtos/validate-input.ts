import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { WebhookInputError } from '../webhook-errors';

/**
 * A JSON body or CLI options → a checked DTO. Unknown fields are refused too (a typo must not be silently ignored);
 * the first problem becomes a WebhookInputError that names the field.
 */
export function validInput<T extends object>(dto: new () => T, plain: unknown): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain))
    throw new WebhookInputError('the body must be a JSON object');
  const instance = plainToInstance(dto, plain, { exposeDefaultValues: true });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw new WebhookInputError(describe(errors[0]));
  return instance;
}

function describe(error: ValidationError): string {
  const constraints = error.constraints ?? {};
  if (constraints.whitelistValidation) return `unknown field "${error.property}"`;
  const child = error.children?.[0];
  if (child && Object.keys(constraints).length === 0) return describe(child);
  return `${error.property}: ${Object.values(constraints).join('; ')}`;
}
