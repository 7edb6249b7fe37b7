import { createKafka } from '@app/kafka';
import { execFile } from 'node:child_process';
import path from 'node:path';

const script = path.resolve(__dirname, '../../scripts/kafka/kafka.sh');

/**
 * The run's own Kafka cluster, driven through `scripts/kafka/kafka.sh` in cluster mode (three brokers that are also
 * the KRaft quorum) on ports and a state directory of its own: the shared broker is never touched.
 */
export class KafkaCluster {
  readonly brokers: string[];

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

  /** Replicas per partition of a topic (every partition alike). */
  async replicationFactor(topic: string): Promise<number> {
    const metadata = await this.withAdmin((admin) => admin.fetchTopicMetadata({ topics: [topic] }));
    return Math.min(...metadata.topics[0].partitions.map((partition) => partition.replicas.length));
  }

  private async withAdmin<T>(work: (admin: ReturnType<ReturnType<typeof createKafka>['admin']>) => Promise<T>) {
    const admin = createKafka('hookrail-chaos-admin', this.brokers).admin();
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
      execFile('bash', [script, ...args], { env, timeout: 180_000 }, (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.trim();
        if (error) reject(Object.assign(new Error(`kafka.sh ${args.join(' ')} failed:\n${output}`), { output }));
        else resolve(output);
      });
    });
  }
}
