import { createConnection } from 'node:net';

/** True when something accepts TCP connections at `host:port` within a second. */
export function tcpReachable(hostPort: string): Promise<boolean> {
  const separator = hostPort.lastIndexOf(':');
  return new Promise((resolve) => {
    const socket = createConnection({
      host: hostPort.slice(0, separator),
      port: Number(hostPort.slice(separator + 1)),
      timeout: 1000,
    });
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
