import { DependencyUnavailableError, PermanentError } from '@app/consumer-runtime';

/** The provider could not answer now (network, timeout, 5xx, 408, 409, 425, 429): a retry with the same key may work. */
export class ProviderUnavailableError extends DependencyUnavailableError {
  override name = 'ProviderUnavailableError';
}

/** The provider refused the request itself (400, 401, 403, 404, 422, …): no retry can fix it; dead-letter at once. */
export class ProviderRejectedError extends PermanentError {
  override name = 'ProviderRejectedError';
  constructor(
    readonly provider: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The error classes one client throws, so that its own names show in dead letters and status rows. */
export interface ProviderErrorTypes {
  unavailable: new (provider: string, message: string, retryAfterMs?: number) => ProviderUnavailableError;
  rejected: new (provider: string, message: string, status?: number) => ProviderRejectedError;
}

export const GENERIC_PROVIDER_ERRORS: ProviderErrorTypes = {
  unavailable: ProviderUnavailableError,
  rejected: ProviderRejectedError,
};
