import { IncomingHttpHeaders } from 'node:http';
import { badSignature } from '@app/http';
import { hmacSha256Hex, sameDigest } from './hmac';
import { DeliveryIdentity, header, WebhookScheme } from './webhook-scheme';

/** GitHub: `X-Hub-Signature-256: sha256=<hex>` of the raw body; id and type in X-GitHub-Delivery / X-GitHub-Event. */
export class GithubScheme implements WebhookScheme {
  constructor(private readonly secrets: string[]) {}

  verify(rawBody: Buffer, headers: IncomingHttpHeaders): void {
    const signature = header(headers, 'x-hub-signature-256');
    if (!signature) throw badSignature('missing X-Hub-Signature-256 header');
    if (!signature.startsWith('sha256=')) throw badSignature('X-Hub-Signature-256 must start with sha256=');
    const given = signature.slice('sha256='.length);
    if (!this.secrets.some((secret) => sameDigest(hmacSha256Hex(secret, rawBody), given))) {
      throw badSignature('X-Hub-Signature-256 does not match the body with any active secret');
    }
  }

  identify(headers: IncomingHttpHeaders): DeliveryIdentity {
    const event = header(headers, 'x-github-event');
    return { senderEventId: header(headers, 'x-github-delivery'), type: event ? `github.${event}` : undefined };
  }
}
