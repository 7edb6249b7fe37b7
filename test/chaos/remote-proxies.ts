import { ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { ProxyReply, ProxyRequest } from './proxy-host';

type Op = ProxyRequest['op'];

/** One proxy living in the proxy host: what the fault runner cuts, stalls and resumes. */
export class RemoteProxy {
  constructor(
    private readonly host: ProxyHost,
    private readonly index: number,
    /** `host:port[,host:port…]` to give a client instead of the server's. */
    readonly address: string,
  ) {}

  cut(): Promise<unknown> {
    return this.host.request({ op: 'cut', proxy: this.index });
  }

  stall(): Promise<unknown> {
    return this.host.request({ op: 'stall', proxy: this.index });
  }

  resume(): Promise<unknown> {
    return this.host.request({ op: 'resume', proxy: this.index });
  }
}

/** The child process that runs the run's proxies (`proxy-host.ts`). */
export class ProxyHost {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (address?: string) => void; reject: (error: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: ProxyReply) => {
      const pending = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error) pending?.reject(new Error(reply.error));
      else pending?.resolve(reply.address);
    });
  }

  static async start(): Promise<ProxyHost> {
    const child = fork(path.join(__dirname, 'proxy-host.ts'), [], {
      execArgv: ['-r', '@swc-node/register'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const host = new ProxyHost(child);
    await new Promise<void>((resolve, reject) => {
      host.waiting.set(0, { resolve: () => resolve(), reject });
      child.once('exit', (code) => reject(new Error(`the proxy host exited (${code})`)));
    });
    return host;
  }

  async tcp(target: string): Promise<RemoteProxy> {
    return this.proxy(await this.request({ op: 'tcp', target }));
  }

  async kafka(targets: string[]): Promise<RemoteProxy> {
    return this.proxy(await this.request({ op: 'kafka', targets }));
  }

  request(request: { op: Op } & Record<string, unknown>): Promise<string | undefined> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ ...request, id });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }

  private proxy(reply: string | undefined): RemoteProxy {
    const [index, address] = (reply ?? '').split(' ');
    return new RemoteProxy(this, Number(index), address);
  }
}
