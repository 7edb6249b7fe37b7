import { IncomingHttpHeaders } from 'node:http';
import { badSignature } from '@app/http';
import { hmacSha256Hex, sameDigest } from './hmac';
import { checkTimestamp } from './timestamp';
import { DeliveryIdentity, header, WebhookScheme } from './webhook-scheme';

/** Stripe: `Stripe-Signature: t=<seconds>,v1=<hex>[,v1=<hex>]`, HMAC-SHA256 of `<t>.<raw body>`; event id in the body. */
export class StripeScheme implements WebhookScheme {
  constructor(
    private readonly secrets: string[],
    private readonly toleranceSeconds: number,
  ) {}

  verify(rawBody: Buffer, headers: IncomingHttpHeaders, nowSeconds: number): void {
    const signature = header(headers, 'stripe-signature');
    if (!signature) throw badSignature('missing Stripe-Signature header');
    const pairs = signature.split(',').map((pair) => pair.trim().split('='));
    const timestamp = pairs.find(([key]) => key === 't')?.[1];
    const candidates = pairs.filter(([key, value]) => key === 'v1' && value).map(([, value]) => value);
    if (!timestamp || candidates.length === 0)
      throw badSignature('Stripe-Signature must carry t= and at least one v1=');
    checkTimestamp(timestamp, nowSeconds, this.toleranceSeconds);
    const matches = this.secrets.some((secret) => {
      const expected = hmacSha256Hex(secret, `${timestamp}.`, rawBody);
      return candidates.some((candidate) => sameDigest(expected, candidate));
    });
    if (!matches) throw badSignature('Stripe-Signature does not match the body with any active secret');
  }

  identify(_headers: IncomingHttpHeaders, body: Record<string, unknown>): DeliveryIdentity {
    return { senderEventId: typeof body.id === 'string' ? body.id : undefined };
  }
}
