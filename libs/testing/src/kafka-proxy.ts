import { TEST_BROKERS } from './test-kafka';
import { ChunkCodec, ConnectionCodecs, parseHostPort, TcpProxy } from './tcp-proxy';

const METADATA_API_KEY = 3;

/**
 * TCP proxies in front of Kafka brokers, one per broker, that a test can cut, stall and resume together: one
 * client is cut off (or partitioned from) the brokers, which keep serving everyone else. Kafka clients connect to the
 * brokers named in Metadata responses, so each proxy rewrites every broker address in them (Metadata v0–v6, the
 * versions kafkajs speaks) to the proxy of that broker: all of the client's connections then pass through the
 * proxies. With a single target every broker named is mapped to its one proxy.
 */
export class KafkaProxy {
  private constructor(private readonly proxies: TcpProxy[]) {}

  /** One proxy per broker (`host:port`); the shared test broker by default. */
  static async start(targets: string | string[] = TEST_BROKERS): Promise<KafkaProxy> {
    const brokers = typeof targets === 'string' ? [targets] : targets;
    const proxies: TcpProxy[] = [];
    const portFor = (host: string, port: number): number => {
      if (proxies.length === 1) return proxies[0].port;
      const index = brokers.findIndex((broker) => {
        const target = parseHostPort(broker);
        return target.port === port && (target.host === host || (isLoopback(target.host) && isLoopback(host)));
      });
      return index >= 0 ? proxies[index].port : port;
    };
    for (const broker of brokers)
      proxies.push(await TcpProxy.start(broker, { codecs: () => metadataRewrite(portFor) }));
    return new KafkaProxy(proxies);
  }

  /** The first proxy's port. */
  get port(): number {
    return this.proxies[0].port;
  }

  /** Comma-separated `host:port` of the proxies, to give a client as its bootstrap brokers. */
  get address(): string {
    return this.proxies.map((proxy) => proxy.address).join(',');
  }

  /** The brokers become unreachable: open connections are cut and new ones refused. */
  async stop(): Promise<void> {
    await Promise.all(this.proxies.map((proxy) => proxy.cut()));
  }

  /** Nothing passes between the client and the brokers, but no connection is reset (a network partition). */
  stall(): void {
    for (const proxy of this.proxies) proxy.stall();
  }

  /** The brokers are reachable again, on the same ports; stalled bytes are delivered. */
  async resume(): Promise<void> {
    await Promise.all(this.proxies.map((proxy) => proxy.resume()));
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '::1';
}

/** Per connection: remembers the client's Metadata requests and rewrites the broker addresses in their responses. */
function metadataRewrite(portFor: (host: string, port: number) => number): ConnectionCodecs {
  const metadataRequests = new Map<number, number>(); // correlation id → api version
  const up: ChunkCodec = frames((frame) => {
    if (frame.readInt16BE(4) === METADATA_API_KEY) metadataRequests.set(frame.readInt32BE(8), frame.readInt16BE(6));
    return frame;
  });
  const down: ChunkCodec = frames((frame) => {
    const correlationId = frame.readInt32BE(4);
    const version = metadataRequests.get(correlationId);
    if (version === undefined) return frame;
    metadataRequests.delete(correlationId);
    return rewriteBrokers(frame, version, portFor);
  });
  return { up, down };
}

/** Splits a byte stream into Kafka frames (4-byte size prefix included) and maps each one. */
function frames(onFrame: (frame: Buffer) => Buffer): ChunkCodec {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    const out: Buffer[] = [];
    while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      const size = 4 + pending.readInt32BE(0);
      out.push(onFrame(pending.subarray(0, size)));
      pending = pending.subarray(size);
    }
    return out;
  };
}

/** Metadata response v0–v6: size, correlation id, [throttle time], brokers [node id, host, port, [rack]], rest. */
function rewriteBrokers(frame: Buffer, version: number, portFor: (host: string, port: number) => number): Buffer {
  let offset = 8 + (version >= 3 ? 4 : 0);
  const head = frame.subarray(4, offset);
  const count = frame.readInt32BE(offset);
  offset += 4;
  const brokers: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const nodeId = frame.readInt32BE(offset);
    offset += 4;
    const hostLength = frame.readInt16BE(offset);
    const originalHost = frame.toString('utf8', offset + 2, offset + 2 + hostLength);
    offset += 2 + hostLength;
    const originalPort = frame.readInt32BE(offset);
    offset += 4;
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
    broker.writeInt32BE(portFor(originalHost, originalPort), 6 + host.length);
    brokers.push(broker, rack);
  }
  const countBuffer = Buffer.alloc(4);
  countBuffer.writeInt32BE(count);
  const body = Buffer.concat([head, countBuffer, ...brokers, frame.subarray(offset)]);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}
