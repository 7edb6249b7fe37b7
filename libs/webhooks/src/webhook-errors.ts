/** Input that breaks a rule (a field, a filter, a time): a 400 at the API, a usage error in the CLI. */
export class WebhookInputError extends Error {
  override name = 'WebhookInputError';
}

/** No such endpoint or delivery: a 404. */
export class WebhookNotFoundError extends Error {
  override name = 'WebhookNotFoundError';
}

/** The request is valid but the row's state does not allow it (e.g. replaying a delivery that is still queued): 409. */
export class WebhookConflictError extends Error {
  override name = 'WebhookConflictError';
}

/** A customer token or portal link that is malformed, unknown, revoked, expired or used: a 401 naming which. */
export class CustomerTokenRefusedError extends Error {
  override name = 'CustomerTokenRefusedError';
}
