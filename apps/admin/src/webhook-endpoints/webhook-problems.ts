import { malformed, notFound, Problem, unauthorized } from '@app/http';
import { UrlRefusedError } from '@app/ssrf-guard';
import {
  CustomerTokenRefusedError,
  WebhookConflictError,
  WebhookInputError,
  WebhookNotFoundError,
} from '@app/webhooks';

/**
 * libs/webhooks' refusals as answers: 400 naming the field or the SSRF reason, 401 for a refused customer token or
 * link, 404, 409. Nothing is written on a refusal.
 */
export async function asProblems<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UrlRefusedError)
      throw new Problem(400, 'url_refused', error.message, { reason: error.reason });
    if (error instanceof WebhookInputError) throw malformed(error.message);
    if (error instanceof CustomerTokenRefusedError) throw unauthorized(error.message);
    if (error instanceof WebhookNotFoundError) throw notFound(error.message);
    if (error instanceof WebhookConflictError) throw new Problem(409, 'conflict', error.message);
    throw error;
  }
}
