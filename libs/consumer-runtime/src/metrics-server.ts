import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';

/**
 * `GET /metrics` in the Prometheus text format, on its own port, for a worker that has no HTTP API; with `notReady`,
 * also `GET /healthz` (200 while the process runs) and `GET /readyz` (200 once `notReady()` says nothing, else 503
 * with what the process waits for).
 */
export async function startMetricsServer(
  registry: Registry,
  port: number,
  host = '0.0.0.0',
  notReady?: () => string | undefined,
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (request.method === 'GET' && notReady && (path === '/healthz' || path === '/readyz')) {
      const waiting = path === '/readyz' ? notReady() : undefined;
      response
        .writeHead(waiting ? 503 : 200, { 'content-type': 'application/json' })
        .end(JSON.stringify(waiting ? { status: 'not_ready', waitingFor: waiting } : { status: 'ok' }));
      return;
    }
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
