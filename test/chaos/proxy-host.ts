// The chaos run's proxies in a process of their own, driven over IPC: every byte between the apps and Postgres,
// and between the consumers and Kafka, passes through them, so they get an event loop that nothing else shares.
import { KafkaProxy, TcpProxy } from '@app/testing';

export type ProxyRequest =
  | { id: number; op: 'tcp'; target: string }
  | { id: number; op: 'kafka'; targets: string[] }
  | { id: number; op: 'cut' | 'stall' | 'resume'; proxy: number };

export type ProxyReply = { id: number; address?: string; error?: string };

const proxies: Array<TcpProxy | KafkaProxy> = [];

async function handle(request: ProxyRequest): Promise<string | undefined> {
  switch (request.op) {
    case 'tcp':
      proxies.push(await TcpProxy.start(request.target));
      return `${proxies.length - 1} ${proxies[proxies.length - 1].address}`;
    case 'kafka':
      proxies.push(await KafkaProxy.start(request.targets));
      return `${proxies.length - 1} ${proxies[proxies.length - 1].address}`;
    case 'cut': {
      const proxy = proxies[request.proxy];
      await (proxy instanceof TcpProxy ? proxy.cut() : proxy.stop());
      return undefined;
    }
    case 'stall':
      proxies[request.proxy].stall();
      return undefined;
    case 'resume':
      await proxies[request.proxy].resume();
      return undefined;
  }
}

if (require.main === module) {
  process.on('message', (request: ProxyRequest) => {
    handle(request).then(
      (address) => process.send!({ id: request.id, address } satisfies ProxyReply),
      (error: Error) => process.send!({ id: request.id, error: error.message } satisfies ProxyReply),
    );
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ id: 0 } satisfies ProxyReply);
}
