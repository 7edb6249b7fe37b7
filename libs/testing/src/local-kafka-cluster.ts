import { createKafka, plaintextKafka } from '@app/kafka';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const script = path.resolve(__dirname, '../../../scripts/kafka/kafka.sh');

/**
 * A Kafka cluster of its own for a test or the chaos run, driven through `scripts/kafka/kafka.sh` in cluster mode
 * (every broker also a KRaft controller) on free ports and in a state directory of its own: the shared broker is
 * never touched. Node ids are 1…nodes.
 */
export class LocalKafkaCluster {
  readonly brokers: string[];

  /**
   * A cluster of `nodes` brokers on free ports, state in `stateDir`, started and ready. On a shared machine a port
   * found free can be taken before a broker binds it: then the cluster is started again on other ports.
   */
  static async start(nodes: number, stateDir: string, heap = '320m'): Promise<LocalKafkaCluster> {
    for (let attempt = 1; ; attempt++) {
      const first = await freePortRun(nodes);
      const cluster = new LocalKafkaCluster(nodes, first, first + 100, stateDir, heap);
      try {
        await cluster.up();
        return cluster;
      } catch (error) {
        await cluster.down().catch(() => undefined); // whatever nodes did start
        const taken = /Address already in use|served by a process this script did not start/.test(
          (error as { output?: string }).output ?? '',
        );
        if (!taken || attempt === 3) throw error;
        rmSync(stateDir, { recursive: true, force: true });
      }
    }
  }

  constructor(
    readonly nodes: number,
    private readonly firstPort: number,
    private readonly controllerPort: number,
    readonly stateDir: string,
    private readonly heap = '320m',
  ) {
    this.brokers = Array.from({ length: nodes }, (_, index) => `127.0.0.1:${firstPort + index}`);
  }

  up(): Promise<string> {
    return this.script('up');
  }

  down(): Promise<string> {
    return this.script('down');
  }

  /** `stop` is a controlled shutdown (SIGTERM), `kill` a SIGKILL. */
  take(node: number, how: 'stop' | 'kill'): Promise<string> {
    return this.script(how, String(node));
  }

  start(node: number): Promise<string> {
    return this.script('start', String(node));
  }

  /** The active controller (the KRaft quorum's leader), as `kafka.sh status` reports it. */
  async controller(): Promise<number> {
    const status = await this.script('status').catch((error: Error & { output?: string }) => error.output ?? '');
    const match = /controller: node (\d+)/.exec(status);
    if (!match) throw new Error(`kafka.sh status named no controller:\n${status}`);
    return Number(match[1]);
  }

  /** The broker leading a partition of a topic. */
  async leaderOf(topic: string, partition: number): Promise<number> {
    const metadata = await this.withAdmin((admin) => admin.fetchTopicMetadata({ topics: [topic] }));
    const found = metadata.topics[0]?.partitions.find((candidate) => candidate.partitionId === partition);
    if (!found || found.leader < 0) throw new Error(`partition ${topic}/${partition} has no leader`);
    return found.leader;
  }

  /** Partitions of these topics whose in-sync replicas are fewer than their replicas (0: fully replicated). */
  async underReplicated(topics: string[]): Promise<number> {
    const metadata = await this.withAdmin((admin) => admin.fetchTopicMetadata({ topics }));
    return metadata.topics
      .flatMap((topic) => topic.partitions)
      .filter((partition) => partition.isr.length < partition.replicas.length).length;
  }

  /** The member ids of consumer groups (a member that was dropped and joined again has a new one). */
  async groupMembers(groupIds: string[]): Promise<string[]> {
    const described = await this.withAdmin((admin) => admin.describeGroups(groupIds));
    return described.groups.flatMap((group) => group.members.map((member) => `${group.groupId}/${member.memberId}`));
  }

  /** Replicas per partition of a topic (every partition alike). */
  async replicationFactor(topic: string): Promise<number> {
    const metadata = await this.withAdmin((admin) => admin.fetchTopicMetadata({ topics: [topic] }));
    return Math.min(...metadata.topics[0].partitions.map((partition) => partition.replicas.length));
  }

  private async withAdmin<T>(work: (admin: ReturnType<ReturnType<typeof createKafka>['admin']>) => Promise<T>) {
    const admin = createKafka('hookrail-chaos-admin', plaintextKafka(this.brokers)).admin();
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  private script(...args: string[]): Promise<string> {
    const env = {
      ...process.env,
      KAFKA_NODES: String(this.nodes),
      KAFKA_CLUSTER_PORT: String(this.firstPort),
      KAFKA_CLUSTER_CONTROLLER_PORT: String(this.controllerPort),
      KAFKA_CLUSTER_STATE_DIR: this.stateDir,
      KAFKA_HEAP: this.heap,
    };
    return new Promise((resolve, reject) => {
      execFile('bash', [script, ...args], { env, timeout: 240_000 }, (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.trim();
        if (error) reject(Object.assign(new Error(`kafka.sh ${args.join(' ')} failed:\n${output}`), { output }));
        else resolve(output);
      });
    });
  }
}

async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A first port such that it and the next `count - 1` are free (brokers), and the same 100 above (controllers). */
async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 19_000);
    const ports = Array.from({ length: count }, (_, index) => [first + index, first + 100 + index]).flat();
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return first;
  }
  throw new Error('found no run of free ports for the cluster');
}
