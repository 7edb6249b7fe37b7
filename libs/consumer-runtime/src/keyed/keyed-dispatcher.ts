import { Batch, Consumer } from 'kafkajs';
import { Logger } from 'pino';
import { BreakerWaiters } from '../breaker/group-breakers';
import { errorMessage } from '../classify-error';
import { OffsetCommits } from '../offset-commits';
import { ConsumerMetrics } from '../consumer-metrics';
import { keyOf } from '../parking/message-keys';
import { KeyedItem, KeyedRecords, Verdict } from './keyed-records';
import { PartitionWindow, WindowEntry } from './partition-window';

/** How a group applies records concurrently by key. */
export interface KeyedSettings {
  /** Records of one partition worked on at once (each of a different key). */
  perPartition: number;
  /** Records of the group worked on at once in this process, over all its partitions. */
  maxInFlight: number;
  /** Records of one partition held (fetched and not committed past) before the partition is paused. */
  windowSize: number;
}

/** One assigned partition and its window. */
interface Lane {
  id: string;
  topic: string;
  partition: number;
  window: PartitionWindow<KeyedItem>;
  /** Paused by this dispatcher because its window is full. */
  paused: boolean;
  /** The offset last committed by this member; before that, the first offset fetched (nothing to commit yet). */
  committed?: bigint;
  /** Revoked: what still runs finishes, and nothing of it is committed. */
  abandoned: boolean;
  /**
   * Records still to pre-check for being applied already, after the partition came to this member: a previous owner
   * may have finished records above its committed offset, within its window (none beyond it). Checking stops at the
   * first batch with none applied, or after a window.
   */
  precheck: number;
}

/** A record that waits: for its retry time, or on a dependency whose breaker is open. */
interface Waiting {
  lane: Lane;
  entry: WindowEntry<KeyedItem>;
  since: number;
  timer?: NodeJS.Timeout;
  dependency?: string;
  deadlineAt?: number;
}

const REBALANCE_ERRORS = new Set([
  'REBALANCE_IN_PROGRESS',
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'NOT_COORDINATOR',
]);

/**
 * Key-level concurrency for one consumer group (its records taken from kafkajs batches, which return at once): each
 * partition's records go into its PartitionWindow, records of different keys run at the same time up to a bound per
 * partition and per group, a key's records strictly one after another, and the offset committed is each window's
 * lowest record not finished. A record that must wait (backoff, a dependency down) holds its key only; while a
 * dependency's breaker is open, records of the types seen failing on it do not start, and the breaker's probes let
 * one go at a time (the dispatcher is the breaker's waiters). A full window pauses its partition. On a rebalance,
 * nothing new starts until the member has joined again; revoked partitions' queued records are dropped, their
 * running ones finish without a commit, and a partition that comes back starts once those are done.
 */
export class KeyedDispatcher implements BreakerWaiters {
  private readonly lanes = new Map<string, Lane>();
  /** Revoked lanes whose records still run: the partition's new lane starts nothing until they finish. */
  private readonly retiring = new Map<string, Lane>();
  private readonly waiting = new Map<WindowEntry<KeyedItem>, Waiting>();
  /** Records woken from a wait on a dependency and not finished: the breaker's answer is still to come. */
  private readonly probing = new Map<string, Set<WindowEntry<KeyedItem>>>();
  /** Records woken by the breaker's probe or close: they start without asking the breaker again. */
  private readonly passGate = new Set<WindowEntry<KeyedItem>>();
  private readonly running = new Set<Promise<void>>();
  /** What a record's walk asks while it runs: nothing to heartbeat (kafkajs's batch returned), and whether to stop. */
  private readonly controls = { heartbeat: async () => {}, shouldStop: () => this.stopping };
  private inFlight = 0;
  private cursor = 0;
  private suspended = false;
  private stopping = false;

  constructor(
    private readonly deps: {
      group: string;
      consumer: Pick<Consumer, 'pause' | 'resume'>;
      commits: OffsetCommits;
      records: KeyedRecords;
      settings: KeyedSettings;
      logger: Logger;
      metrics: ConsumerMetrics;
      isOpen(dependency: string): boolean;
    },
  ) {}

  /** A fetched batch: its records join the partition's window (as many as fit), and work starts. */
  async intake(batch: Batch, resolveOffset: (offset: string) => void): Promise<void> {
    if (this.stopping) return;
    const lane = this.lane(batch.topic, batch.partition);
    if (batch.messages.length > 0) lane.committed ??= BigInt(batch.messages[0].offset);
    const room = Math.max(0, this.deps.settings.windowSize - lane.window.size);
    const messages = batch.messages.slice(0, room);
    if (messages.length < batch.messages.length) this.pause(lane);
    const precheck = lane.precheck > 0;
    const items = await this.deps.records.prepare(batch.topic, batch.partition, messages, this.controls, precheck);
    lane.precheck = items.some((item) => item.applied) ? Math.max(0, lane.precheck - messages.length) : 0;
    if (lane.abandoned || this.stopping) return;
    for (const item of items) {
      const ignored = this.deps.records.isIgnored(item);
      const entry = lane.window.add(BigInt(item.message.offset), ignored ? null : keyOf(item.message), item);
      if (entry && ignored) lane.window.complete(entry);
      resolveOffset(item.message.offset);
    }
    this.scheduleCommit();
    this.pump();
  }

  /** The group is rebalancing: nothing new starts; what is done is committed while the generation still holds. */
  rebalancing(): void {
    this.suspended = true;
    void this.deps.commits.flush();
  }

  /** The member joined with this assignment: revoked partitions are let go, the rest goes on. */
  assigned(assignment: Record<string, number[]>): void {
    for (const lane of [...this.lanes.values()]) {
      if (!assignment[lane.topic]?.includes(lane.partition)) this.abandon(lane);
    }
    this.suspended = false;
    this.pump();
  }

  /** Starts nothing new, lets running records finish, commits what is done. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const waiting of this.waiting.values()) clearTimeout(waiting.timer);
    this.waiting.clear();
    await Promise.allSettled([...this.running]);
    this.scheduleCommit();
    await this.deps.commits.flush();
  }

  // BreakerWaiters: what an open breaker holds back and lets go.

  probe(dependency: string): string | undefined {
    const oldest = [...this.waiting.values()]
      .filter((waiting) => waiting.dependency === dependency)
      .sort((a, b) => a.since - b.since)[0];
    if (!oldest) return undefined;
    this.wake(oldest);
    return `${oldest.lane.topic}|${oldest.lane.partition}`;
  }

  anyWaitingOn(dependency: string): boolean {
    if ((this.probing.get(dependency)?.size ?? 0) > 0) return true;
    return [...this.waiting.values()].some((waiting) => waiting.dependency === dependency);
  }

  release(dependency: string): number {
    const waiting = [...this.waiting.values()].filter((entry) => entry.dependency === dependency);
    waiting.forEach((entry) => this.wake(entry));
    return waiting.length;
  }

  private lane(topic: string, partition: number): Lane {
    const id = `${topic}|${partition}`;
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = {
        id,
        topic,
        partition,
        window: new PartitionWindow<KeyedItem>(),
        paused: false,
        abandoned: false,
        precheck: this.deps.settings.windowSize,
      };
      this.lanes.set(id, lane);
    }
    return lane;
  }

  /** Starts records while the bounds allow, one partition after another. */
  private pump(): void {
    if (this.stopping || this.suspended) return;
    const { perPartition, maxInFlight } = this.deps.settings;
    const lanes = [...this.lanes.values()].filter((lane) => !this.retiring.has(lane.id));
    let started = true;
    while (started && this.inFlight < maxInFlight && lanes.length > 0) {
      started = false;
      for (let index = 0; index < lanes.length && this.inFlight < maxInFlight; index++) {
        const lane = lanes[(this.cursor + index) % lanes.length];
        if (lane.window.inFlight >= perPartition) continue;
        const entry = lane.window.take();
        if (!entry) continue;
        started = true;
        const dependency = this.passGate.delete(entry) ? undefined : this.deps.records.heldBy(entry.item);
        if (dependency) {
          lane.window.wait(entry);
          this.hold(lane, entry, { dependency });
        } else {
          this.start(lane, entry);
        }
      }
      this.cursor++;
    }
    this.setGauges();
  }

  private start(lane: Lane, entry: WindowEntry<KeyedItem>): void {
    this.inFlight++;
    const work = this.deps.records.run(entry.item).then(
      (verdict) => this.settle(lane, entry, verdict),
      (error: unknown) => {
        this.deps.logger.error(
          {
            group: this.deps.group,
            topic: lane.topic,
            partition: lane.partition,
            offset: entry.item.message.offset,
            err: errorMessage(error),
          },
          'record failed outside its steps; tried again in a second',
        );
        this.settle(lane, entry, { kind: 'wait', retryAt: Date.now() + 1_000 });
      },
    );
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private settle(lane: Lane, entry: WindowEntry<KeyedItem>, verdict: Verdict): void {
    this.inFlight--;
    for (const probing of this.probing.values()) probing.delete(entry);
    if (lane.abandoned) {
      lane.window.wait(entry);
      if (lane.window.inFlight === 0 && this.retiring.get(lane.id) === lane) this.retiring.delete(lane.id);
    } else if (verdict.kind === 'done') {
      lane.window.complete(entry);
      if (lane.paused && lane.window.size <= this.deps.settings.windowSize / 2) this.resume(lane);
      this.scheduleCommit();
    } else {
      lane.window.wait(entry);
      this.hold(lane, entry, verdict);
    }
    this.pump();
  }

  /** The record waits until `retryAt` (and, while `dependency`'s breaker is open, until a probe or its deadline). */
  private hold(
    lane: Lane,
    entry: WindowEntry<KeyedItem>,
    wait: { retryAt?: number; deadlineAt?: number; dependency?: string },
  ): void {
    const waiting: Waiting = {
      lane,
      entry,
      since: Date.now(),
      dependency: wait.dependency,
      deadlineAt: wait.deadlineAt,
    };
    this.waiting.set(entry, waiting);
    if (wait.retryAt !== undefined) this.schedule(waiting, wait.retryAt);
  }

  private schedule(waiting: Waiting, at: number): void {
    clearTimeout(waiting.timer);
    waiting.timer = setTimeout(() => this.due(waiting), Math.max(0, at - Date.now()));
  }

  private due(waiting: Waiting): void {
    const { dependency, deadlineAt } = waiting;
    const beforeDeadline = deadlineAt === undefined || Date.now() < deadlineAt;
    if (dependency && this.deps.isOpen(dependency) && beforeDeadline) {
      waiting.timer = undefined;
      if (deadlineAt !== undefined) this.schedule(waiting, deadlineAt);
      return;
    }
    this.wake(waiting);
  }

  private wake(waiting: Waiting): void {
    clearTimeout(waiting.timer);
    this.waiting.delete(waiting.entry);
    if (waiting.dependency) {
      const probing = this.probing.get(waiting.dependency) ?? new Set();
      probing.add(waiting.entry);
      this.probing.set(waiting.dependency, probing);
      this.passGate.add(waiting.entry);
    }
    waiting.lane.window.ready(waiting.entry);
    this.pump();
  }

  private abandon(lane: Lane): void {
    lane.abandoned = true;
    this.lanes.delete(lane.id);
    this.deps.commits.forget(lane.topic, lane.partition);
    for (const waiting of [...this.waiting.values()]) {
      if (waiting.lane !== lane) continue;
      clearTimeout(waiting.timer);
      this.waiting.delete(waiting.entry);
    }
    // kafkajs keeps a pause across rebalances: the partition may come back here later.
    if (lane.paused) this.resume(lane);
    if (lane.window.inFlight > 0) this.retiring.set(lane.id, lane);
    this.deps.logger.info(
      {
        group: this.deps.group,
        topic: lane.topic,
        partition: lane.partition,
        held: lane.window.size,
        running: lane.window.inFlight,
      },
      'partition revoked: its records are left to its next owner; those running finish without a commit',
    );
  }

  /** Marks each partition's lowest unfinished offset for commit when it moved. */
  private scheduleCommit(): void {
    for (const lane of this.lanes.values()) {
      const offset = lane.window.committable();
      if (offset === undefined || lane.committed === undefined || offset <= lane.committed) continue;
      lane.committed = offset;
      this.deps.commits.mark(lane.topic, lane.partition, offset);
    }
  }

  private pause(lane: Lane): void {
    if (lane.paused) return;
    lane.paused = this.call('pause', lane);
  }

  private resume(lane: Lane): void {
    if (!lane.paused) return;
    lane.paused = false;
    this.call('resume', lane);
  }

  /** kafkajs refuses while its consumer restarts after a crash; the restarted consumer fetches afresh anyway. */
  private call(action: 'pause' | 'resume', lane: Lane): boolean {
    try {
      this.deps.consumer[action]([{ topic: lane.topic, partitions: [lane.partition] }]);
      return true;
    } catch (error) {
      this.deps.logger.warn(
        { group: this.deps.group, topic: lane.topic, partition: lane.partition, err: errorMessage(error) },
        `kafkajs refused to ${action} the partition (its consumer is restarting)`,
      );
      return false;
    }
  }

  private setGauges(): void {
    const { group } = this.deps;
    this.deps.metrics.inFlight.set({ group }, this.inFlight);
    this.deps.metrics.waiting.set({ group }, this.waiting.size);
  }
}
