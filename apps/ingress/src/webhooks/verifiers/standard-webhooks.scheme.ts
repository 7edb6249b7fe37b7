import { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { badSignature } from '../../http/problem';
import { DeliveryIdentity, header, WebhookScheme } from './webhook-scheme';
import { checkTimestamp } from './timestamp';

/** Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), verified by the reference library. */
export class StandardWebhooksScheme implements WebhookScheme {
  private readonly webhooks: Webhook[];

  /** Throws on a malformed secret, so a bad sources file stops the process at boot. */
  constructor(
    secrets: string[],
    private readonly toleranceSeconds: number,
  ) {
    this.webhooks = secrets.map((secret) => new Webhook(secret));
  }

  verify(rawBody: Buffer, headers: IncomingHttpHeaders, nowSeconds: number): void {
    const required = {
      'webhook-id': header(headers, 'webhook-id'),
      'webhook-timestamp': header(headers, 'webhook-timestamp'),
      'webhook-signature': header(headers, 'webhook-signature'),
    };
    for (const [name, value] of Object.entries(required)) if (!value) throw badSignature(`missing ${name} header`);
    checkTimestamp(required['webhook-timestamp'] as string, nowSeconds, this.toleranceSeconds);
    const verified = this.webhooks.some((webhook) => {
      try {
        webhook.verify(rawBody, required as Record<string, string>, { jsonParse: false });
        return true;
      } catch {
        return false;
      }
    });
    if (!verified) throw badSignature('webhook-signature does not match the body with any active secret');
  }

  identify(headers: IncomingHttpHeaders): DeliveryIdentity {
    return { senderEventId: header(headers, 'webhook-id') };
  }
}
