import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { pinnedLookup } from './pinned-lookup';
import { CheckedUrl } from './ssrf-guard';

export interface PostLimits {
  /** From the request's start until the TCP connection (and TLS handshake) is up. */
  connectTimeoutMs: number;
  /** From the request's start until the response was read. */
  timeoutMs: number;
  /** Response bytes read at most; the connection is closed beyond them. */
  maxResponseBytes: number;
  /** Response bytes kept (the start of the body). */
  keepResponseBytes: number;
}

export interface PostResult {
  status: number;
  /** The first `keepResponseBytes` of the body as text (NUL characters removed: Postgres text cannot hold them). */
  body: string;
  /** `Location` of a redirect, which is never followed. */
  location?: string;
  latencyMs: number;
}

export type PostFailureKind = 'connect-timeout' | 'timeout' | 'network' | 'aborted';

export class PostFailedError extends Error {
  override name = 'PostFailedError';

  constructor(
    readonly kind: PostFailureKind,
    message: string,
    readonly latencyMs: number,
  ) {
    super(message);
  }
}

/**
 * POSTs to a URL the SSRF guard checked, connecting to the checked address only (pinnedLookup: no second DNS
 * lookup), never following a redirect (Node's client does not), with a connect timeout, a total timeout and a cap on
 * the response bytes read. Connections are kept alive and reused per host and port.
 */
export class GuardedHttpClient {
  private readonly httpAgent = new http.Agent({ keepAlive: true, scheduling: 'lifo' });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, scheduling: 'lifo' });

  async post(
    target: CheckedUrl,
    headers: Record<string, string>,
    body: string,
    limits: PostLimits,
    signal?: AbortSignal,
  ): Promise<PostResult> {
    const started = performance.now();
    try {
      return await this.once(target, headers, body, limits, started, signal);
    } catch (error) {
      // A kept-alive connection the server closed while idle fails before any byte of an answer: the request never
      // reached the application, so it goes once more on a fresh connection (the pattern Node's documentation gives).
      if (!(error instanceof StaleConnectionError)) throw error;
      return this.once(target, headers, body, limits, started, signal);
    }
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private once(
    target: CheckedUrl,
    headers: Record<string, string>,
    body: string,
    limits: PostLimits,
    started: number,
    signal?: AbortSignal,
  ): Promise<PostResult> {
    const secure = target.url.protocol === 'https:';
    const elapsed = () => performance.now() - started;
    return new Promise<PostResult>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: PostResult | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(totalTimer);
        signal?.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const fail = (kind: PostFailureKind, message: string) => {
        const error = new PostFailedError(kind, message, elapsed());
        request.destroy(error);
        finish(error);
      };
      const request = (secure ? https : http).request({
        method: 'POST',
        protocol: target.url.protocol,
        hostname: target.hostname,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: pinnedLookup(target.address, target.family),
        ...(secure && !isIP(target.hostname) ? { servername: target.hostname } : {}),
      });
      const remaining = Math.max(0, limits.timeoutMs - elapsed());
      const totalTimer = setTimeout(
        () => fail('timeout', `no complete answer within ${limits.timeoutMs} ms`),
        remaining,
      );
      const connectTimer = setTimeout(
        () => fail('connect-timeout', `could not connect within ${limits.connectTimeoutMs} ms`),
        Math.min(remaining, limits.connectTimeoutMs),
      );
      const onAbort = () => fail('aborted', 'the delivery was stopped (shutdown)');
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
      request.on('socket', (socket) => {
        if (!socket.connecting) return clearTimeout(connectTimer);
        socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        if (request.reusedSocket && error.code === 'ECONNRESET') return finish(new StaleConnectionError());
        finish(new PostFailedError('network', networkMessage(error), elapsed()));
      });
      request.on('response', (response) => {
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let readBytes = 0;
        const answer = (): PostResult => ({
          status: response.statusCode ?? 0,
          body: Buffer.concat(kept)
            .toString('utf8')
            .replace(/\u0000/g, ''),
          location: response.headers.location,
          latencyMs: elapsed(),
        });
        response.on('data', (chunk: Buffer) => {
          readBytes += chunk.length;
          if (keptBytes < limits.keepResponseBytes) {
            const part = chunk.subarray(0, limits.keepResponseBytes - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          if (readBytes >= limits.maxResponseBytes) {
            // Enough read: the status decided the attempt already; the rest of the body is not worth the wait.
            finish(answer());
            response.destroy();
          }
        });
        response.on('end', () => finish(answer()));
        response.on('error', (error) => {
          if (!settled) finish(new PostFailedError('network', networkMessage(error), elapsed()));
        });
      });
      request.end(body);
    });
  }
}

class StaleConnectionError extends Error {}

function networkMessage(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
