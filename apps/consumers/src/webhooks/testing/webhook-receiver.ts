import http, { IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request as the receiver got it. */
export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the body was read. */
  at: number;
  /** The webhook-id header (the event id). */
  webhookId: string;
  /** Date.now() when the answer was finished (or the connection closed); undefined while it is open. */
  doneAt?: number;
}

/** How to answer: a status (and body), after a delay; `hang` never answers (until the receiver closes). */
export interface Reply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  hang?: boolean;
}

type Responder = (request: ReceivedRequest, attemptOfThisId: number) => Reply;

/**
 * A real HTTP server on 127.0.0.1 standing in for a customer's webhook endpoint: it records every request, answers
 * as the test decides, and applies an effect once per `webhook-id` (as a receiver that dedupes should).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** `<path> <webhook-id>` of each effect applied (answered 2xx the first time for that path), in order. */
  readonly effects: string[] = [];
  /** Requests being answered right now (hanging ones included). */
  inFlight = 0;
  /** Requests being answered right now per path, and the most there ever were at once. */
  private readonly openAt = new Map<string, number>();
  private readonly peakAt = new Map<string, number>();
  private responder: Responder = () => ({ status: 200 });
  private readonly attemptsSeen = new Map<string, number>();
  private readonly applied = new Set<string>();
  private readonly open = new Set<ServerResponse>();

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = http.createServer({ keepAliveTimeout: 5_000 });
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => receiver.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** `attemptOfThisId` counts the requests with this webhook-id to this path so far, this one included (1 first). */
  respond(responder: Responder): void {
    this.responder = responder;
  }

  /** The requests with this webhook-id (to this path only, when given). */
  requestsFor(webhookId: string, path?: string): ReceivedRequest[] {
    return this.requests.filter(
      (request) => request.webhookId === webhookId && (path === undefined || request.path === path),
    );
  }

  /** Requests to this path being answered right now. */
  inFlightAt(path: string): number {
    return this.openAt.get(path) ?? 0;
  }

  /** The most requests to this path that were ever being answered at once. */
  peakInFlightAt(path: string): number {
    return this.peakAt.get(path) ?? 0;
  }

  /** The effects applied for this path, as webhook-ids. */
  effectsAt(path: string): string[] {
    return this.effects
      .filter((effect) => effect.startsWith(`${path} `))
      .map((effect) => effect.slice(path.length + 1));
  }

  /** Verifies a request with the `standardwebhooks` library and `secret`; returns the parsed body or throws. */
  static verify(request: ReceivedRequest, secret: string): unknown {
    return new Webhook(secret).verify(request.body, request.headers);
  }

  /** Answers every hanging request (with a 503) and stops. */
  async close(): Promise<void> {
    for (const response of this.open) if (!response.headersSent) response.writeHead(503).end();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : (value ?? ''),
        ]),
      );
      const received: ReceivedRequest = {
        path: request.url ?? '',
        headers,
        body,
        at: Date.now(),
        webhookId: headers['webhook-id'] ?? '',
      };
      this.requests.push(received);
      const key = `${received.path} ${received.webhookId}`;
      const attempt = (this.attemptsSeen.get(key) ?? 0) + 1;
      this.attemptsSeen.set(key, attempt);
      const reply = this.responder(received, attempt);
      this.inFlight++;
      const open = (this.openAt.get(received.path) ?? 0) + 1;
      this.openAt.set(received.path, open);
      this.peakAt.set(received.path, Math.max(open, this.peakAt.get(received.path) ?? 0));
      this.open.add(response);
      response.on('close', () => {
        received.doneAt = Date.now();
        this.inFlight--;
        this.openAt.set(received.path, (this.openAt.get(received.path) ?? 1) - 1);
        this.open.delete(response);
      });
      if (reply.hang) return;
      const answer = () => {
        const status = reply.status ?? 200;
        if (status >= 200 && status < 300 && !this.applied.has(key)) {
          this.applied.add(key);
          this.effects.push(key);
        }
        if (!response.destroyed) response.writeHead(status, reply.headers).end(reply.body ?? '');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  }
}
