import { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { badSignature } from '@app/http';
import { webhookSecretKey } from '@app/webhooks';
import { hmacSha256Base64, sameDigest } from './hmac';
import { DeliveryIdentity, header, WebhookScheme } from './webhook-scheme';
import { checkTimestamp } from './timestamp';

/**
 * Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature): `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<raw body>">`, any of the space-separated signatures with any active secret. The reference
 * library checks each secret's format at boot; the HMAC is node's own (the library's pure-JavaScript SHA-256 cost a
 * tenth of the ingress's CPU per request). The tests sign with the reference library.
 */
export class StandardWebhooksScheme implements WebhookScheme {
  private readonly keys: Buffer[];

  /** Throws on a malformed secret, so a bad sources file stops the process at boot. */
  constructor(
    secrets: string[],
    private readonly toleranceSeconds: number,
  ) {
    this.keys = secrets.map((secret) => {
      new Webhook(secret); // the reference library's check of the secret: base64, not empty
      return webhookSecretKey(secret);
    });
  }

  verify(rawBody: Buffer, headers: IncomingHttpHeaders, nowSeconds: number): void {
    const id = header(headers, 'webhook-id');
    if (!id) throw badSignature('missing webhook-id header');
    const timestamp = header(headers, 'webhook-timestamp');
    if (!timestamp) throw badSignature('missing webhook-timestamp header');
    const signatures = header(headers, 'webhook-signature');
    if (!signatures) throw badSignature('missing webhook-signature header');
    const seconds = checkTimestamp(timestamp, nowSeconds, this.toleranceSeconds);

    const given: string[] = [];
    for (const versioned of signatures.split(' ')) {
      if (versioned.startsWith('v1,')) given.push(versioned.slice(3));
    }
    for (const key of this.keys) {
      const expected = hmacSha256Base64(key, `${id}.${seconds}.`, rawBody);
      if (given.some((signature) => sameDigest(expected, signature))) return;
    }
    throw badSignature('webhook-signature does not match the body with any active secret');
  }

  identify(headers: IncomingHttpHeaders): DeliveryIdentity {
    return { senderEventId: header(headers, 'webhook-id') };
  }
}
