import { randomBytes } from 'node:crypto';

/** A new Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** What the API and the CLI show of a secret after its creation: never the secret itself. */
export interface SecretSummary {
  id: string;
  createdAt: Date;
  /** Null while current; the end of a rotation's overlap otherwise. */
  expiresAt: Date | null;
}
