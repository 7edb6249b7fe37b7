import { dataSchemaOf } from '@app/contracts';
import { webhookSecretKey, webhookSecretProblem } from '@app/webhooks';
import { createHmac } from 'node:crypto';

/** The CloudEvents attributes of a delivery, sent as `ce-*` headers (HTTP binding, binary mode). */
export interface SignedEvent {
  /** hookrail's event id: `webhook-id` and `ce-hookrailid`. */
  id: string;
  /** The id its producer gave the event (`POST /events`): `ce-id`; null for one hookrail made (`ce-id` is `id`). */
  producerId: string | null;
  type: string;
  source: string;
  time: Date;
  subject: string | null;
}

const MAX_CACHED_SECRETS = 1_000;

/** One of the endpoint's secrets cannot sign: which one (newest first, as `endpoints show` lists them) and why. */
export class InvalidSigningSecretError extends Error {
  override name = 'InvalidSigningSecretError';
}

/**
 * The headers of one attempt: Standard Webhooks (`webhook-id` = hookrail's event id, the same for every attempt and
 * replay and unique per event, whatever its producer called it; `webhook-timestamp` = now; `webhook-signature` with
 * one `v1,` signature per active secret, separated by spaces, as the spec allows during a rotation) and the
 * CloudEvents HTTP binding's `ce-*` attributes (`ce-id` the producer's own id of an event posted to `POST /events`,
 * `ce-hookrailid` hookrail's), so that the body stays the event's data and either kind of receiver can read it.
 * The HMAC is node's own, as the ingress's check is: a third of the CPU of the `standardwebhooks` library's
 * pure-JavaScript SHA-256 (`npm run bench:signer`). The tests verify every signature with that library.
 */
export class WebhookSigner {
  /** Each secret's HMAC key: the bytes of the base64 after `whsec_`. */
  private readonly keys = new Map<string, Buffer>();

  headers(event: SignedEvent, payload: string, secrets: readonly string[], now: Date): Record<string, string> {
    const seconds = Math.floor(now.getTime() / 1000);
    const signatures = secrets.map(
      (secret, index) =>
        `v1,${createHmac('sha256', this.key(secret, index, secrets.length))
          .update(`${event.id}.${seconds}.`)
          .update(payload)
          .digest('base64')}`,
    );
    // The catalogue's schema of the type (a type without a contract has none to name).
    const dataschema = dataSchemaOf(event.type);
    return {
      'content-type': 'application/json',
      'user-agent': 'hookrail-webhooks/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(seconds),
      'webhook-signature': signatures.join(' '),
      'ce-specversion': '1.0',
      'ce-id': headerValue(event.producerId ?? event.id),
      'ce-hookrailid': headerValue(event.id),
      'ce-type': headerValue(event.type),
      'ce-source': headerValue(event.source),
      'ce-time': event.time.toISOString(),
      ...(event.subject ? { 'ce-subject': headerValue(event.subject) } : {}),
      ...(dataschema ? { 'ce-dataschema': headerValue(dataschema) } : {}),
    };
  }

  private key(secret: string, index: number, count: number): Buffer {
    let key = this.keys.get(secret);
    if (!key) {
      const problem = webhookSecretProblem(secret);
      if (problem)
        throw new InvalidSigningSecretError(
          `signing secret ${index + 1} of ${count} (newest first) is not a Standard Webhooks signing secret: ${problem}`,
        );
      if (this.keys.size >= MAX_CACHED_SECRETS) this.keys.clear();
      key = webhookSecretKey(secret);
      this.keys.set(secret, key);
    }
    return key;
  }
}

/** The CloudEvents HTTP binding's header encoding: printable ASCII as is, anything else (and `%`, `"`) percent-encoded. */
function headerValue(value: string): string {
  return value.replace(/[^\x21-\x7e]|[%"]/g, (char) =>
    char === ' '
      ? ' '
      : [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}
