/**
 * A client error with its HTTP status, a stable machine-readable code and a message that names what was wrong.
 * Rendered as `{"error": code, "message": message, ...details}` by the exception filter. `reason` is what a rejected
 * delivery is counted and kept under: the code, unless a finer one tells an operator more (a stale timestamp is an
 * `invalid_signature` to the sender, `timestamp_outside_tolerance` to the operator).
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    readonly reason: string = code,
  ) {
    super(message);
  }
}

export const unknownSource = (name: string) =>
  new Problem(404, 'unknown_source', `no webhook source is configured under the name "${name}"`);
export const unauthorized = (message: string) => new Problem(401, 'unauthorized', message);
export const badSignature = (message: string) => new Problem(401, 'invalid_signature', message);
/** A signed timestamp too old or too far ahead: a replay, or the sender's clock. */
export const timestampOutsideTolerance = (message: string) =>
  new Problem(401, 'invalid_signature', message, {}, {}, 'timestamp_outside_tolerance');
export const unsupportedMediaType = (got: string | undefined, expected: string) =>
  new Problem(415, 'unsupported_media_type', `content-type ${got ? `"${got}"` : 'is missing'}; expected ${expected}`);
export const malformed = (message: string) => new Problem(400, 'malformed_request', message);
export const invalidEvent = (type: string, fieldErrors: unknown[]) =>
  new Problem(400, 'invalid_event', `the data of ${type} does not match its schema`, { fieldErrors });
export const idConflict = (senderEventId: string) =>
  new Problem(409, 'event_id_conflict', `event id "${senderEventId}" was already received with a different payload`);
export const notFound = (what: string) => new Problem(404, 'not_found', what);
export const confirmationRequired = (message: string, details: Record<string, unknown>) =>
  new Problem(409, 'confirmation_required', message, details);
/** A valid token without the role or the group an action needs: the message names which. */
export const forbidden = (message: string) => new Problem(403, 'forbidden', message);
