import { IncomingHttpHeaders } from 'node:http';

/** What a verified delivery says about itself, per scheme. */
export interface DeliveryIdentity {
  /** The sender's id for this event: the dedupe key together with the source name. */
  senderEventId?: string;
  /** The event type when the scheme carries it outside the body (GitHub's X-GitHub-Event). */
  type?: string;
}

/** One signature scheme: verifies the raw bytes and tells the delivery's identity. Throws a Problem (401) on failure. */
export interface WebhookScheme {
  verify(rawBody: Buffer, headers: IncomingHttpHeaders, nowSeconds: number): void;
  identify(headers: IncomingHttpHeaders, body: Record<string, unknown>): DeliveryIdentity;
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
