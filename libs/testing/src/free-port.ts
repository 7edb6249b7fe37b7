import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on right now (for an app process's metrics or HTTP port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
