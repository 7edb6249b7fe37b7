import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { readBody, reply, waitUnlessClosed } from './http-io';

const sleep = (ms: number) => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), Math.max(0, ms)));

/** What every development provider can be told to do (`configure`, or `POST /_dev/behaviour` with a part of it). */
export interface DevBehaviour {
  /** Added to every call before it is answered. */
  latencyMs: number;
  /** The next calls take these times instead, one entry per call (e.g. `[10000]`: the next call takes 10 s). */
  nextLatenciesMs: number[];
  /** The next N calls fail with `failStatus` and do nothing. */
  failNext: number;
  /** Share of calls (0–1) that fail with `failStatus`; 1: the provider is down. */
  failureRate: number;
  failStatus: number;
  /** Sent as `Retry-After` with every failure, when set. */
  retryAfterSeconds?: number;
}

export interface DevProviderOptions<B extends DevBehaviour> {
  port?: number;
  host?: string;
  /** When set, calls must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  behaviour?: Partial<B>;
}

export type DevRoute = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

export type Simulated = 'proceed' | 'failed' | 'abandoned';

const DEFAULT_BEHAVIOUR: DevBehaviour = {
  latencyMs: 0,
  nextLatenciesMs: [],
  failNext: 0,
  failureRate: 0,
  failStatus: 503,
};

/**
 * The scaffolding every development provider shares, over real HTTP on the loopback address: routing, bodies,
 * the bearer check, `GET /_dev/stats`, `POST /_dev/behaviour`, and injected latency and failures. A provider adds
 * its own routes and counts. Nothing leaves the machine.
 */
export abstract class DevProviderServer<B extends DevBehaviour = DevBehaviour> {
  protected behaviour: B;
  private server?: Server;
  private address = '';

  protected constructor(
    private readonly apiKey: string | undefined,
    extraDefaults: Omit<B, keyof DevBehaviour>,
  ) {
    this.behaviour = { ...DEFAULT_BEHAVIOUR, ...extraDefaults } as B;
  }

  /** `http://host:port` of the running server. */
  get url(): string {
    return this.address;
  }

  /** Routes by `METHOD /path`, e.g. `POST /v1/emails`. */
  protected abstract routes(): Record<string, DevRoute>;

  /** What `GET /_dev/stats` answers. */
  abstract stats(): object;

  protected async listen(options: DevProviderOptions<B>): Promise<this> {
    const server = createServer();
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, host, resolve));
    this.server = server;
    this.address = `http://${host}:${(server.address() as AddressInfo).port}`;
    this.configure(options.behaviour ?? {});
    const routes: Record<string, DevRoute> = {
      ...this.routes(),
      'GET /_dev/stats': async (_request, response) => reply(response, 200, this.stats()),
      'POST /_dev/behaviour': async (request, response) =>
        reply(response, 200, this.configure(JSON.parse((await readBody(request)) || '{}'))),
    };
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const route = routes[`${request.method} ${request.url?.split('?')[0]}`] ?? this.route(request);
      const handled = route ? route(request, response) : Promise.resolve(reply(response, 404, { error: 'not_found' }));
      handled.catch((error: Error) => reply(response, 500, { error: 'internal', message: error.message }));
    });
    return this;
  }

  /** A route the table does not name (e.g. a path with a parameter); none by default. */
  protected route(_request: IncomingMessage): DevRoute | undefined {
    return undefined;
  }

  configure(change: Partial<B>): B {
    this.behaviour = { ...this.behaviour, ...change };
    return this.behaviour;
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  /** False (and a 401 sent) when an API key is required and the call does not carry it. */
  protected authorized(request: IncomingMessage, response: ServerResponse, body: unknown = { error: 'unauthorized' }) {
    if (!this.apiKey || request.headers.authorization === `Bearer ${this.apiKey}`) return true;
    reply(response, 401, body);
    return false;
  }

  /**
   * Applies the injected latency and failures to one call: `failed` (the failure was answered), `abandoned` (the
   * client went away during the latency, and `abandonOnClose` says to stop there) or `proceed`. By default a call
   * whose client gave up still goes through, as at a real provider: that is what idempotency keys are for.
   */
  protected async simulate(
    response: ServerResponse,
    failureBody: unknown,
    { abandonOnClose = false } = {},
  ): Promise<Simulated> {
    const behaviour = this.behaviour;
    const latency = behaviour.nextLatenciesMs.length > 0 ? behaviour.nextLatenciesMs.shift()! : behaviour.latencyMs;
    const fail = behaviour.failNext > 0 || Math.random() < behaviour.failureRate;
    if (behaviour.failNext > 0) behaviour.failNext--;
    const stayed = abandonOnClose ? await waitUnlessClosed(latency, response) : await sleep(latency);
    if (!stayed) return 'abandoned';
    if (!fail) return 'proceed';
    const headers: Record<string, string> =
      behaviour.retryAfterSeconds === undefined ? {} : { 'retry-after': String(behaviour.retryAfterSeconds) };
    reply(response, behaviour.failStatus, failureBody, headers);
    return 'failed';
  }
}
