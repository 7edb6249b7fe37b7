import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';

/** Turns the bytes read from one side into the bytes written to the other (per connection and direction). */
export type ChunkCodec = (chunk: Buffer) => Buffer[];

/** A connection's two codecs: client → upstream and upstream → client. */
export interface ConnectionCodecs {
  up: ChunkCodec;
  down: ChunkCodec;
}

export type ProxyState = 'open' | 'stalled' | 'cut';

interface Link {
  client: Socket;
  upstream: Socket;
  /** Bytes held while the proxy is stalled, per direction, in arrival order. */
  heldUp: Buffer[];
  heldDown: Buffer[];
}

const passThrough = (): ConnectionCodecs => ({ up: (chunk) => [chunk], down: (chunk) => [chunk] });

/**
 * A TCP proxy in front of one server (Postgres, a Kafka broker) that a test can cut, stall and resume, to take a
 * dependency away from some clients without touching the server everyone shares.
 * - `cut()`: open connections are reset and new ones refused, as when the server goes down;
 * - `stall()`: connections stay open (and new ones are accepted) but no byte passes either way, as in a network
 *   partition that does not reset anything; `resume()` delivers what was held, in order. `stall('answers')` holds
 *   only what the server sends: requests arrive and run, their answers do not come back;
 * - `resume()`: back to open, on the same port.
 */
export class TcpProxy {
  private server?: Server;
  private readonly links = new Set<Link>();
  private current: ProxyState = 'open';
  /** While stalled: which directions hold their bytes. */
  private held: { up: boolean; down: boolean } = { up: false, down: false };

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
    private readonly codecs: () => ConnectionCodecs,
  ) {}

  /** `target` is `host:port`; `port` 0 (the default) takes a free one. */
  static async start(
    target: string,
    options: { port?: number; codecs?: () => ConnectionCodecs } = {},
  ): Promise<TcpProxy> {
    const port = options.port || (await freeLoopbackPort());
    const proxy = new TcpProxy(port, parseHostPort(target), options.codecs ?? passThrough);
    await proxy.listen();
    return proxy;
  }

  /** `host:port` to give a client instead of the server's. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get state(): ProxyState {
    return this.current;
  }

  /** The server becomes unreachable: open connections are destroyed and new ones refused. */
  async cut(): Promise<void> {
    this.current = 'cut';
    const server = this.server;
    this.server = undefined;
    for (const link of this.links) destroy(link);
    this.links.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Nothing passes until `resume()` (with `'answers'`: nothing from the server, requests still go through);
   * connections stay open, and new ones are accepted and held too.
   */
  stall(what: 'both' | 'answers' = 'both'): void {
    if (this.current === 'cut') return;
    this.current = 'stalled';
    this.held = { up: what === 'both', down: true };
  }

  /** Traffic flows again: held bytes are delivered in order; after a cut the proxy listens on the same port. */
  async resume(): Promise<void> {
    if (this.current === 'cut') await this.listen();
    this.current = 'open';
    for (const link of this.links) {
      for (const chunk of link.heldUp.splice(0)) link.upstream.write(chunk);
      for (const chunk of link.heldDown.splice(0)) link.client.write(chunk);
      link.client.resume();
      link.upstream.resume();
    }
  }

  private async listen(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  private accept(client: Socket): void {
    const upstream = createConnection(this.target);
    const link: Link = { client, upstream, heldUp: [], heldDown: [] };
    this.links.add(link);
    const close = () => {
      destroy(link);
      this.links.delete(link);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    const codecs = this.codecs();
    this.forward('up', client, upstream, codecs.up, link.heldUp);
    this.forward('down', upstream, client, codecs.down, link.heldDown);
  }

  private forward(direction: 'up' | 'down', from: Socket, to: Socket, codec: ChunkCodec, held: Buffer[]): void {
    from.on('data', (chunk: Buffer) => {
      const out = codec(chunk);
      if (this.current === 'stalled' && this.held[direction]) {
        held.push(...out);
        from.pause(); // the sender's TCP window fills up, as on a link that carries nothing
        return;
      }
      for (const piece of out) to.write(piece);
    });
  }
}

function destroy(link: Link): void {
  link.client.destroy();
  link.upstream.destroy();
}

export function parseHostPort(address: string): { host: string; port: number } {
  const separator = address.lastIndexOf(':');
  return { host: address.slice(0, separator), port: Number(address.slice(separator + 1)) };
}

async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
