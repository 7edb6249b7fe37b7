import { createConnection, createServer, Server, Socket } from 'node:net';
import { AddressInfo } from 'node:net';
import { TEST_BROKERS } from './test-kafka';

const METADATA_API_KEY = 3;

/**
 * A TCP proxy in front of the test broker that a test can stop and start, to cut one client off the broker
 * without touching the broker everyone shares. Kafka clients connect to the brokers named in Metadata responses,
 * so the proxy rewrites every broker address in them (Metadata v0–v6, the versions kafkajs speaks) to itself:
 * all of the client's connections then pass through it.
 */
export class KafkaProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target = TEST_BROKERS[0]): Promise<KafkaProxy> {
    const separator = target.lastIndexOf(':');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const proxy = new KafkaProxy(port, { host: target.slice(0, separator), port: Number(target.slice(separator + 1)) });
    await proxy.resume();
    return proxy;
  }

  /** `host:port` to give a client as its bootstrap broker. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The broker becomes unreachable: open connections are cut and new ones refused. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The broker is reachable again, on the same port. */
  async resume(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.pipe(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  private pipe(client: Socket): void {
    const upstream = createConnection(this.target);
    this.sockets.add(client).add(upstream);
    const metadataRequests = new Map<number, number>(); // correlation id → api version
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);

    client.on(
      'data',
      frames((frame) => {
        if (frame.readInt16BE(4) === METADATA_API_KEY) metadataRequests.set(frame.readInt32BE(8), frame.readInt16BE(6));
        upstream.write(frame);
      }),
    );
    upstream.on(
      'data',
      frames((frame) => {
        const correlationId = frame.readInt32BE(4);
        const version = metadataRequests.get(correlationId);
        if (version === undefined) return void client.write(frame);
        metadataRequests.delete(correlationId);
        client.write(rewriteBrokers(frame, version, this.port));
      }),
    );
  }
}

/** Splits a byte stream into Kafka frames (4-byte size prefix included). */
function frames(onFrame: (frame: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      const size = 4 + pending.readInt32BE(0);
      onFrame(pending.subarray(0, size));
      pending = pending.subarray(size);
    }
  };
}

/** Metadata response v0–v6: size, correlation id, [throttle time], brokers [node id, host, port, [rack]], rest. */
function rewriteBrokers(frame: Buffer, version: number, port: number): Buffer {
  let offset = 8 + (version >= 3 ? 4 : 0);
  const head = frame.subarray(4, offset);
  const count = frame.readInt32BE(offset);
  offset += 4;
  const brokers: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const nodeId = frame.readInt32BE(offset);
    offset += 4;
    offset += 2 + frame.readInt16BE(offset); // host
    offset += 4; // port
    let rack: Buffer = Buffer.alloc(0);
    if (version >= 1) {
      const rackLength = frame.readInt16BE(offset);
      const end = offset + 2 + Math.max(0, rackLength);
      rack = frame.subarray(offset, end);
      offset = end;
    }
    const host = Buffer.from('127.0.0.1');
    const broker = Buffer.alloc(4 + 2 + host.length + 4);
    broker.writeInt32BE(nodeId, 0);
    broker.writeInt16BE(host.length, 4);
    host.copy(broker, 6);
    broker.writeInt32BE(port, 6 + host.length);
    brokers.push(broker, rack);
  }
  const countBuffer = Buffer.alloc(4);
  countBuffer.writeInt32BE(count);
  const body = Buffer.concat([head, countBuffer, ...brokers, frame.subarray(offset)]);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}
