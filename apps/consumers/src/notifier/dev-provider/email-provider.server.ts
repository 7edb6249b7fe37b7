import { createHash, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** How the development provider behaves; change it at run time with `configure` or `POST /_dev/behaviour`. */
export interface EmailProviderBehaviour {
  /** Added to every send before it is answered. */
  latencyMs: number;
  /** The next N sends fail with `failStatus` (and send nothing). */
  failNext: number;
  failStatus: number;
}

export interface SentEmail {
  id: string;
  idempotencyKey: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
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

type KeyState = { state: 'in-progress'; fingerprint: string } | { state: 'done'; fingerprint: string; body: string };

const MAX_BODY_BYTES = 256 * 1024;

/**
 * A small email provider for development and tests, over real HTTP: `POST /v1/emails` with an `Idempotency-Key`
 * sends (records) one email per key and answers a repeated key with the first response (`Idempotent-Replayed:
 * true`); the same key with a different body is a 422, and a key whose first request is still running a 409. It
 * can be told to fail or slow down, and it counts what it sent. Nothing leaves the machine.
 */
export class DevEmailProvider {
  readonly emails: SentEmail[] = [];
  private readonly keys = new Map<string, KeyState>();
  private readonly counts = { requests: 0, replayed: 0, failed: 0 };
  private readonly requestsPerKey = new Map<string, number>();
  private behaviour: EmailProviderBehaviour = { latencyMs: 0, failNext: 0, failStatus: 503 };

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly apiKey?: string,
  ) {}

  static async start(
    options: { port?: number; host?: string; apiKey?: string; behaviour?: Partial<EmailProviderBehaviour> } = {},
  ): Promise<DevEmailProvider> {
    const server = createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, host, resolve));
    const provider = new DevEmailProvider(
      server,
      `http://${host}:${(server.address() as AddressInfo).port}`,
      options.apiKey,
    );
    provider.configure(options.behaviour ?? {});
    server.on('request', (request, response) =>
      provider
        .route(request, response)
        .catch((error: Error) => reply(response, 500, { error: 'internal', message: error.message })),
    );
    return provider;
  }

  configure(change: Partial<EmailProviderBehaviour>): EmailProviderBehaviour {
    this.behaviour = { ...this.behaviour, ...change };
    return this.behaviour;
  }

  stats(): EmailProviderStats {
    return { ...this.counts, sent: this.emails.length, keys: Object.fromEntries(this.requestsPerKey) };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url?.split('?')[0];
    if (request.method === 'POST' && path === '/v1/emails') return this.send(request, response);
    if (request.method === 'GET' && path === '/v1/emails') return reply(response, 200, { data: this.emails });
    if (request.method === 'GET' && path === '/_dev/stats') return reply(response, 200, this.stats());
    if (request.method === 'POST' && path === '/_dev/behaviour')
      return reply(response, 200, this.configure(JSON.parse((await readBody(request)) || '{}')));
    reply(response, 404, { error: 'not_found' });
  }

  private async send(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.counts.requests++;
    if (this.apiKey && request.headers.authorization !== `Bearer ${this.apiKey}`)
      return reply(response, 401, { error: 'unauthorized' });
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || key.length === 0) return reply(response, 400, { error: 'idempotency_key_required' });
    this.requestsPerKey.set(key, (this.requestsPerKey.get(key) ?? 0) + 1);
    const raw = await readBody(request);
    const fingerprint = createHash('sha256').update(raw).digest('hex');
    const known = this.keys.get(key);
    if (known && known.fingerprint !== fingerprint)
      return reply(response, 422, {
        error: 'idempotency_key_reused',
        message: 'this key was used with a different request',
      });
    if (known?.state === 'in-progress') return reply(response, 409, { error: 'request_in_progress' });
    if (known?.state === 'done') {
      this.counts.replayed++;
      response.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(known.body);
      return;
    }
    const email = parseEmail(raw);
    if (!email)
      return reply(response, 400, {
        error: 'invalid_email',
        message: 'from, to, subject and text are required strings',
      });

    this.keys.set(key, { state: 'in-progress', fingerprint });
    const { latencyMs } = this.behaviour;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    if (this.behaviour.failNext > 0) {
      this.behaviour.failNext--;
      this.counts.failed++;
      this.keys.delete(key);
      return reply(response, this.behaviour.failStatus, { error: 'provider_failure', message: 'failing on purpose' });
    }
    const sent: SentEmail = {
      id: `msg_${randomUUID()}`,
      idempotencyKey: key,
      ...email,
      sentAt: new Date().toISOString(),
    };
    this.emails.push(sent);
    const body = JSON.stringify({ id: sent.id, status: 'sent' });
    this.keys.set(key, { state: 'done', fingerprint, body });
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

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
