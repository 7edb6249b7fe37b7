import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** How the fake model behaves; change it at run time with `configure` or `POST /_dev/behaviour`. */
export interface ModelBehaviour {
  /** Added to every answer. */
  latencyMs: number;
  /** The next N calls take this long instead (one entry per call), e.g. `[10000]`: the next call takes 10 s. */
  nextLatenciesMs: number[];
  /** Share of calls (0–1) that fail with `failStatus`. 1: every call fails. */
  failureRate: number;
  /** The next N calls fail with `failStatus`. */
  failNext: number;
  failStatus: number;
}

export interface ModelStats {
  /** Calls received. */
  requests: number;
  /** Calls answered with a completion. */
  completed: number;
  failed: number;
  /** Calls whose client went away before the answer. */
  abandoned: number;
  /** Calls being worked on right now. */
  inFlight: number;
}

const CATEGORIES: Array<[RegExp, string]> = [
  [/gift|wrap|present/i, 'gift'],
  [/deliver|shipping|address|door|parcel/i, 'delivery'],
  [/change|instead|swap|size/i, 'change'],
  [/broken|late|wrong|refund|complain/i, 'complaint'],
];

/**
 * An OpenAI-compatible chat-completions server for development and tests, over real HTTP: `POST
 * /v1/chat/completions` answers with a deterministic triage of the last user message, after a configurable
 * latency, or fails on demand. Nothing leaves the machine.
 */
export class FakeModelServer {
  private readonly counts = { requests: 0, completed: 0, failed: 0, abandoned: 0, inFlight: 0 };
  private behaviour: ModelBehaviour = {
    latencyMs: 0,
    nextLatenciesMs: [],
    failureRate: 0,
    failNext: 0,
    failStatus: 503,
  };

  private constructor(
    private readonly server: Server,
    /** Up to and including `/v1`: what MODEL_BASE_URL takes. */
    readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  static async start(
    options: { port?: number; host?: string; apiKey?: string; behaviour?: Partial<ModelBehaviour> } = {},
  ): Promise<FakeModelServer> {
    const server = createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, host, resolve));
    const model = new FakeModelServer(
      server,
      `http://${host}:${(server.address() as AddressInfo).port}/v1`,
      options.apiKey,
    );
    model.configure(options.behaviour ?? {});
    server.on('request', (request, response) =>
      model
        .route(request, response)
        .catch((error: Error) => reply(response, 500, { error: { message: error.message } })),
    );
    return model;
  }

  configure(change: Partial<ModelBehaviour>): ModelBehaviour {
    this.behaviour = { ...this.behaviour, ...change };
    return this.behaviour;
  }

  stats(): ModelStats {
    return { ...this.counts };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url?.split('?')[0];
    if (request.method === 'POST' && path === '/v1/chat/completions') return this.complete(request, response);
    if (request.method === 'GET' && path === '/_dev/stats') return reply(response, 200, this.stats());
    if (request.method === 'POST' && path === '/_dev/behaviour')
      return reply(response, 200, this.configure(JSON.parse((await readBody(request)) || '{}')));
    reply(response, 404, { error: { message: 'not found' } });
  }

  private async complete(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.counts.requests++;
    if (this.apiKey && request.headers.authorization !== `Bearer ${this.apiKey}`)
      return reply(response, 401, { error: { message: 'invalid api key' } });
    let body: { model?: string; messages?: Array<{ role?: string; content?: string }> };
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      return reply(response, 400, { error: { message: 'body is not JSON' } });
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return reply(response, 400, { error: { message: 'messages is required' } });

    const latency =
      this.behaviour.nextLatenciesMs.length > 0 ? this.behaviour.nextLatenciesMs.shift()! : this.behaviour.latencyMs;
    const fail = this.behaviour.failNext > 0 || Math.random() < this.behaviour.failureRate;
    if (this.behaviour.failNext > 0) this.behaviour.failNext--;
    this.counts.inFlight++;
    try {
      if (!(await waitUnlessClosed(latency, response))) {
        this.counts.abandoned++;
        return;
      }
    } finally {
      this.counts.inFlight--;
    }
    if (fail) {
      this.counts.failed++;
      return reply(response, this.behaviour.failStatus, {
        error: { message: 'failing on purpose', type: 'server_error' },
      });
    }
    this.counts.completed++;
    const note = [...body.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
    reply(response, 200, {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? 'fake',
      choices: [
        { index: 0, message: { role: 'assistant', content: JSON.stringify(triage(note)) }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: note.length, completion_tokens: 16, total_tokens: note.length + 16 },
    });
  }
}

function triage(text: string): { category: string; summary: string } {
  const note = text.split('Note:').pop()?.trim() ?? text;
  const category = CATEGORIES.find(([pattern]) => pattern.test(note))?.[1] ?? 'other';
  return { category, summary: note.split(/\s+/).slice(0, 20).join(' ') };
}

/** Resolves true after `ms`, or false as soon as the client closes the connection. */
function waitUnlessClosed(ms: number, response: ServerResponse): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(!response.destroyed);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(true);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    response.once('close', onClose);
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
