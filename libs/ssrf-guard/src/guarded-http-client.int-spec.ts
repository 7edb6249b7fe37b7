import http, { IncomingMessage, ServerResponse } from 'node:http';
import net from 'node:net';
import { AllowList } from './allow-list';
import { GuardedHttpClient, PostFailedError, PostLimits } from './guarded-http-client';
import { ResolvedAddress, SsrfGuard } from './ssrf-guard';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A real HTTP server on 127.0.0.1 whose answer each test decides; it records what reached it. */
async function server(handler: Handler) {
  const seen: Array<{ path: string; host: string; body: string }> = [];
  const httpServer = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ path: request.url ?? '', host: request.headers.host ?? '', body });
      handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as net.AddressInfo;
  return {
    port,
    seen,
    close: () => {
      httpServer.closeAllConnections();
      return new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

const limits: PostLimits = {
  connectTimeoutMs: 1_000,
  timeoutMs: 1_500,
  maxResponseBytes: 64 * 1024,
  keepResponseBytes: 2048,
};

describe('GuardedHttpClient (real sockets on 127.0.0.1)', () => {
  const asked: string[] = [];
  // Names resolve through this table only: nothing here asks a DNS server.
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    return hostname === 'receiver.example.test' ? [{ address: '127.0.0.1', family: 4 }] : [];
  };
  const guard = new SsrfGuard(
    { allowHttp: true, allowPorts: [], allowList: AllowList.parse(['127.0.0.1', 'receiver.example.test']) },
    resolve,
  );
  const client = new GuardedHttpClient();
  const servers: Array<{ close: () => Promise<unknown> }> = [];

  afterAll(async () => {
    client.close();
    await Promise.all(servers.map((s) => s.close()));
  });

  async function start(handler: Handler) {
    const started = await server(handler);
    servers.push(started);
    return started;
  }

  it('connects to the address the guard checked, resolving the name once, and sends the name as Host', async () => {
    const receiver = await start((_request, response) => response.end('ok'));
    asked.length = 0;
    const target = await guard.check(`http://receiver.example.test:${receiver.port}/hooks?a=1`);
    const result = await client.post(target, { 'content-type': 'application/json' }, '{"n":1}', limits);
    expect(result).toMatchObject({ status: 200, body: 'ok' });
    expect(receiver.seen).toEqual([
      { path: '/hooks?a=1', host: `receiver.example.test:${receiver.port}`, body: '{"n":1}' },
    ]);
    expect(asked).toEqual(['receiver.example.test']);
  });

  it('never follows a redirect, to a private address or anywhere else', async () => {
    const elsewhere = await start((_request, response) => response.end('should not be reached'));
    const redirecting = await start((_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/internal` }).end();
    });
    const target = await guard.check(`http://127.0.0.1:${redirecting.port}/hook`);
    const result = await client.post(target, {}, '{}', limits);
    expect(result).toMatchObject({ status: 302, location: `http://127.0.0.1:${elsewhere.port}/internal` });
    expect(elsewhere.seen).toEqual([]);
  });

  it('gives up on an answer that does not come within the total timeout', async () => {
    const hanging = await start(() => undefined);
    const target = await guard.check(`http://127.0.0.1:${hanging.port}/slow`);
    const error = await client.post(target, {}, '{}', { ...limits, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostFailedError);
    expect(error).toMatchObject({ kind: 'timeout', message: 'no complete answer within 300 ms' });
    expect((error as PostFailedError).latencyMs).toBeGreaterThanOrEqual(290);
  });

  it('gives up on a connection that is not up within the connect timeout (a TLS handshake nobody answers)', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise((resolve) => silent.close(resolve)) });
    const sockets: net.Socket[] = [];
    silent.on('connection', (socket) => sockets.push(socket));
    const { port } = silent.address() as net.AddressInfo;
    const target = await guard.check(`https://127.0.0.1:${port}/`);
    const error = await client
      .post(target, {}, '{}', { ...limits, connectTimeoutMs: 200, timeoutMs: 5_000 })
      .catch((e: unknown) => e);
    sockets.forEach((socket) => socket.destroy());
    expect(error).toMatchObject({ kind: 'connect-timeout', message: 'could not connect within 200 ms' });
  });

  it('reads at most the response cap and keeps the first bytes, without NUL characters', async () => {
    const chatty = await start((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.write('\u0000boom ');
      const chunk = 'x'.repeat(16 * 1024);
      // Far more than the cap; the client stops reading and closes the connection.
      let sent = 0;
      const more = () => {
        while (sent < 4 * 1024 * 1024 && response.write(chunk)) sent += chunk.length;
        if (sent < 4 * 1024 * 1024) response.once('drain', more);
        else response.end();
      };
      more();
      response.on('error', () => undefined);
    });
    const target = await guard.check(`http://127.0.0.1:${chatty.port}/`);
    const result = await client.post(target, {}, '{}', limits);
    expect(result.status).toBe(500);
    expect(result.body.startsWith('boom x')).toBe(true);
    expect(Buffer.byteLength(result.body)).toBe(2047);
  });

  it('reports a refused connection as a network failure', async () => {
    const closed = await start(() => undefined);
    await closed.close();
    const target = await guard.check(`http://127.0.0.1:${closed.port}/`);
    await expect(client.post(target, {}, '{}', limits)).rejects.toMatchObject({
      kind: 'network',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
