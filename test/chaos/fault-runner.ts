import { LocalKafkaCluster } from '@app/testing';
import { ManagedProcess } from './chaos-processes';
import { describeFault, PlannedFault } from './fault-schedule';
import { RemoteProxy } from './remote-proxies';

/**
 * A fault as it happened: when it began, when its cause was undone (the process started again, the broker serving
 * again, the proxy open again) and when the runner was done with it (a broker: its partitions fully replicated).
 */
export interface FaultRecord {
  kind: PlannedFault['kind'];
  what: string;
  startedAt: number;
  restoredAt: number;
  endedAt: number;
  note?: string;
}

interface Outcome {
  what: string;
  restoredAt: number;
  note?: string;
}

export interface FaultTargets {
  processes: ReadonlyMap<string, ManagedProcess>;
  cluster: LocalKafkaCluster;
  postgres: RemoteProxy;
  /** The Kafka proxies of the consumers processes, by process name. */
  consumerLinks: ReadonlyMap<string, RemoteProxy>;
  /** The topic whose partition leaders broker faults aim at. */
  ordersTopic: string;
  /** The consumer group ids whose members a stall should replace. */
  groups: string[];
  /** Topics that must be fully replicated again before the next broker fault. */
  replicatedTopics: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Carries out a fault plan against the running system, each fault at its time. Broker faults wait for one another
 * (and for every partition to be fully replicated again), so that the cluster never loses two brokers at once; the
 * other kinds overlap freely. `log` records what happened, `onEvent` prints it as it happens.
 */
export class FaultRunner {
  readonly log: FaultRecord[] = [];
  private brokerChain: Promise<void> = Promise.resolve();

  constructor(
    private readonly targets: FaultTargets,
    private readonly onEvent: (line: string) => void,
  ) {}

  /** Each fault at its time; a broker fault whose turn comes only after the traffic ended (`endsAt`) is skipped. */
  async run(plan: PlannedFault[], startedAt: number, endsAt: number): Promise<void> {
    await Promise.all(
      plan.map(async (fault) => {
        await sleep(Math.max(0, startedAt + fault.at - Date.now()));
        if (fault.kind === 'broker') {
          const previous = this.brokerChain;
          let done!: () => void;
          this.brokerChain = new Promise((resolve) => (done = resolve));
          await previous;
          if (Date.now() + fault.downMs > endsAt) {
            const now = Date.now();
            this.log.push({
              kind: fault.kind,
              what: describeFault(fault).replace(/^\s*[\d.]+ s\s+/, ''),
              startedAt: now,
              restoredAt: now,
              endedAt: now,
              note: 'skipped: the previous broker fault lasted past the end of the traffic',
            });
            return done();
          }
          await this.apply(fault, startedAt).finally(done);
        } else {
          await this.apply(fault, startedAt);
        }
      }),
    );
  }

  /** When the cause of the last fault was undone. */
  lastRestored(): number {
    return Math.max(0, ...this.log.map((record) => record.restoredAt));
  }

  private async apply(fault: PlannedFault, startedAt: number): Promise<void> {
    const at = `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
    this.onEvent(`chaos: ${at.padStart(7)}  ${describeFault(fault).replace(/^\s*[\d.]+ s\s+/, '')}`);
    const began = Date.now();
    try {
      const { what, note, restoredAt } = await this.carryOut(fault);
      this.log.push({ kind: fault.kind, what, startedAt: began, restoredAt, endedAt: Date.now(), note });
    } catch (error) {
      this.log.push({
        kind: fault.kind,
        what: describeFault(fault),
        startedAt: began,
        restoredAt: Date.now(),
        endedAt: Date.now(),
        note: `failed: ${(error as Error).message.split('\n')[0]}`,
      });
      this.onEvent(`chaos: fault failed: ${(error as Error).message}`);
    }
  }

  private async carryOut(fault: PlannedFault): Promise<Outcome> {
    const { processes, cluster, postgres, consumerLinks } = this.targets;
    switch (fault.kind) {
      case 'kill-process': {
        const target = processes.get(fault.target)!;
        if (!target.running) return { what: fault.target, restoredAt: Date.now(), note: 'skipped: already down' };
        await target.kill9();
        await sleep(fault.pauseMs);
        target.start();
        return { what: fault.target, restoredAt: Date.now() };
      }
      case 'broker': {
        const node =
          fault.broker.role === 'controller'
            ? await cluster.controller()
            : await cluster.leaderOf(this.targets.ordersTopic, fault.broker.partition);
        const role =
          fault.broker.role === 'controller' ? 'controller' : `leader of partition ${fault.broker.partition}`;
        await cluster.take(node, fault.how);
        await sleep(fault.downMs);
        await cluster.start(node);
        const restoredAt = Date.now();
        const caughtUp = await this.waitReplicated();
        return { what: `broker ${node} (${role}, ${fault.how})`, restoredAt, note: caughtUp };
      }
      case 'postgres-outage':
        await postgres.cut();
        await sleep(fault.durationMs);
        await postgres.resume();
        return { what: 'Postgres', restoredAt: Date.now() };
      case 'consumer-stall': {
        const link = consumerLinks.get(fault.target)!;
        const before = await this.members();
        await link.stall();
        await sleep(fault.durationMs);
        await link.resume();
        const restoredAt = Date.now();
        return { what: `${fault.target} ↔ Kafka`, restoredAt, note: await this.rebalanced(before) };
      }
    }
  }

  /**
   * Whether the groups went on without the stalled process: a member dropped for its silence comes back under a new
   * member id, so the members listed before the stall are not all there any more.
   */
  private async rebalanced(before: string[]): Promise<string> {
    if (before.length === 0) return 'the group members could not be listed before the stall';
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const now = new Set(await this.targets.cluster.groupMembers(this.targets.groups).catch(() => before));
      const dropped = before.filter((member) => !now.has(member)).length;
      if (dropped > 0) return `its groups rebalanced (${dropped} of ${before.length} members replaced)`;
      await sleep(1000);
    }
    return `no member replaced within 30 s of the stall (${before.length} members before it)`;
  }

  /** The consumer groups' members; a broker fault can make the listing fail for a moment. */
  private async members(): Promise<string[]> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const members = await this.targets.cluster.groupMembers(this.targets.groups).catch(() => []);
      if (members.length > 0) return members;
      await sleep(500);
    }
    return [];
  }

  private async waitReplicated(): Promise<string | undefined> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const behind = await this.targets.cluster.underReplicated(this.targets.replicatedTopics).catch(() => -1);
      if (behind === 0) return undefined;
      if (Date.now() > deadline) return `${behind} partitions still under-replicated after 60 s`;
      await sleep(500);
    }
  }
}
