import {
  DevBehaviour,
  DevProviderOptions,
  DevProviderServer,
  DevRoute,
  IdempotencyStore,
  readBody,
  reply,
} from '@app/dev-providers';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';

export type EmailProviderBehaviour = DevBehaviour;

export interface SentEmail {
  id: string;
  idempotencyKey: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** One `POST /v1/emails` as it arrived, and the status it was answered with. */
export interface EmailProviderCall {
  idempotencyKey: string;
  at: Date;
  status?: number;
}

export interface EmailProviderStats {
  /** Every `POST /v1/emails`, answered or not. */
  requests: number;
  /** Emails actually sent: one per idempotency key at most. */
  sent: number;
  /** Requests answered from a key's first response. */
  replayed: number;
  failed: number;
  /** Requests per idempotency key. */
  keys: Record<string, number>;
}

/**
 * A small email provider for development and tests, over real HTTP: `POST /v1/emails` with an `Idempotency-Key`
 * sends (records) one email per key and answers a repeated key with the first response (`Idempotent-Replayed:
 * true`); the same key with a different body is a 422, and a key whose first request is still running a 409. It
 * can be told to fail or slow down, and it counts what it sent.
 */
export class DevEmailProvider extends DevProviderServer<EmailProviderBehaviour> {
  readonly emails: SentEmail[] = [];
  /** Every call with a key, in arrival order: when a retry came, and what it was told. */
  readonly calls: EmailProviderCall[] = [];
  private readonly idempotency = new IdempotencyStore();
  private readonly counts = { requests: 0, replayed: 0, failed: 0 };

  private constructor(apiKey?: string) {
    super(apiKey, {});
  }

  static start(options: DevProviderOptions<EmailProviderBehaviour> = {}): Promise<DevEmailProvider> {
    return new DevEmailProvider(options.apiKey).listen(options);
  }

  stats(): EmailProviderStats {
    return { ...this.counts, sent: this.emails.length, keys: this.idempotency.requestsPerKey() };
  }

  protected routes(): Record<string, DevRoute> {
    return {
      'POST /v1/emails': (request, response) => this.send(request, response),
      'GET /v1/emails': async (_request, response) => reply(response, 200, { data: this.emails }),
    };
  }

  private async send(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.counts.requests++;
    if (!this.authorized(request, response)) return;
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || key.length === 0) return reply(response, 400, { error: 'idempotency_key_required' });
    const call: EmailProviderCall = { idempotencyKey: key, at: new Date() };
    this.calls.push(call);
    response.once('finish', () => (call.status = response.statusCode));
    const raw = await readBody(request);
    const check = this.idempotency.begin(key, raw);
    if (check.kind === 'conflict') {
      return reply(response, 422, {
        error: 'idempotency_key_reused',
        message: 'this key was used with a different request',
      });
    }
    if (check.kind === 'in-progress') return reply(response, 409, { error: 'request_in_progress' });
    if (check.kind === 'replay') {
      this.counts.replayed++;
      response.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(check.body);
      return;
    }
    const email = parseEmail(raw);
    if (!email) {
      this.idempotency.release(key);
      return reply(response, 400, {
        error: 'invalid_email',
        message: 'from, to, subject and text are required strings',
      });
    }
    const outcome = await this.simulate(response, { error: 'provider_failure', message: 'failing on purpose' });
    if (outcome !== 'proceed') {
      if (outcome === 'failed') this.counts.failed++;
      this.idempotency.release(key);
      return;
    }
    const sent: SentEmail = {
      id: `msg_${randomUUID()}`,
      idempotencyKey: key,
      ...email,
      sentAt: new Date().toISOString(),
    };
    this.emails.push(sent);
    const body = JSON.stringify({ id: sent.id, status: 'sent' });
    this.idempotency.complete(key, body);
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  }
}

function parseEmail(raw: string): Omit<SentEmail, 'id' | 'idempotencyKey' | 'sentAt'> | undefined {
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const fields = ['from', 'to', 'subject', 'text'] as const;
    if (!fields.every((field) => typeof body[field] === 'string' && body[field])) return undefined;
    return { from: String(body.from), to: String(body.to), subject: String(body.subject), text: String(body.text) };
  } catch {
    return undefined;
  }
}
