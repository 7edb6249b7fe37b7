import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Logger } from 'pino';
import { Registry } from 'prom-client';

/**
 * A tiny HTTP server, the relay's only HTTP surface: `GET /metrics` (Prometheus text format), `GET /healthz` (200
 * while the process runs) and `GET /readyz` (200 once `notReady()` says nothing, else 503 naming what it waits for).
 * It answers from the start, also while the relay waits for Postgres or Kafka.
 */
export class MetricsServer {
  private server?: Server;

  constructor(
    private readonly registry: Registry,
    private readonly notReady: () => string | undefined = () => undefined,
  ) {}

  async listen(port: number, host: string): Promise<number> {
    const server = createServer((request, response) => {
      const path = request.url?.split('?')[0];
      if (request.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
        const waiting = path === '/readyz' ? this.notReady() : undefined;
        response
          .writeHead(waiting ? 503 : 200, { 'content-type': 'application/json' })
          .end(JSON.stringify(waiting ? { status: 'not_ready', waitingFor: waiting } : { status: 'ok' }));
        return;
      }
      if (request.method !== 'GET' || path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      this.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (error: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`${error.message}\n`),
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * Listens on METRICS_PORT (unless 0). A second relay on the same host finds the port taken: it runs on without an
 * endpoint of its own (and says so) rather than refusing to start, since several relays per host is a supported way
 * to run.
 */
export async function serveMetrics(
  server: MetricsServer,
  config: { METRICS_PORT: number; METRICS_HOST: string },
  logger: Logger,
): Promise<void> {
  if (config.METRICS_PORT === 0) return;
  try {
    const port = await server.listen(config.METRICS_PORT, config.METRICS_HOST);
    logger.info({ port }, 'metrics on GET /metrics, /healthz and /readyz');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    logger.warn(
      { port: config.METRICS_PORT },
      'metrics port already in use; this relay serves no /metrics (set METRICS_PORT per instance)',
    );
  }
}
