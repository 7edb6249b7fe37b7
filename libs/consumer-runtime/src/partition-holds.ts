import { Consumer, TopicPartitions } from 'kafkajs';
import { Failure } from './steps/retry.middleware';

/** A message that must not be tried again yet, and the partition that waits behind it. */
export interface HeldMessage {
  topic: string;
  partition: number;
  /** The waiting message: the partition's committed offset stays at it. */
  offset: string;
  /** Why it waits; absent when it waits for its dead letter to be produced (it is then processed afresh). */
  failure?: Failure;
  /** When it may be tried again on its own (backoff, `Retry-After`). */
  retryAt: number;
  /** The last moment to try it: its retry ceiling. While its dependency's breaker is open it waits until then. */
  deadlineAt?: number;
}

interface Hold extends HeldMessage {
  paused: boolean;
  timer?: NodeJS.Timeout;
}

const key = (topic: string, partition: number) => `${topic}|${partition}`;

/**
 * Partitions handed back to kafkajs while their first uncommitted message waits: paused (kafkajs `pause`, so nothing
 * of them is fetched and the batch in hand ends at once) and resumed when the wait is over, which sends the fetch
 * back to the committed offset, that is to the waiting message. Waiting this way holds no kafkajs worker, so the
 * member's other partitions go on (a kafkajs fetch waits for every batch it handed out), its heartbeats go on, and a
 * rebalance finds nothing in hand. A message whose dependency's breaker is open waits for the breaker (a probe or
 * the close resumes it), or for its retry ceiling, whichever comes first.
 */
export class PartitionHolds {
  private readonly holds = new Map<string, Hold>();

  constructor(
    private readonly consumer: Pick<Consumer, 'pause' | 'resume'>,
    private readonly isOpen: (dependency: string) => boolean,
    /** A pause or resume kafkajs refused, e.g. between a crash of its consumer and the restart. */
    private readonly refused: (
      action: 'pause' | 'resume',
      topic: string,
      partition: number,
      error: unknown,
    ) => void = () => {},
  ) {}

  hold(message: HeldMessage): void {
    const id = key(message.topic, message.partition);
    clearTimeout(this.holds.get(id)?.timer);
    const hold: Hold = { ...message, paused: true };
    this.holds.set(id, hold);
    this.call('pause', message.topic, message.partition);
    this.schedule(hold, message.retryAt);
  }

  /**
   * The failure the partition's first message waits with, when `offset` is that message; forgets the hold either way
   * (another member may have moved the partition on meanwhile).
   */
  take(topic: string, partition: number, offset: string | undefined): Failure | undefined {
    const id = key(topic, partition);
    const hold = this.holds.get(id);
    if (!hold) return undefined;
    clearTimeout(hold.timer);
    this.holds.delete(id);
    if (hold.paused) this.call('resume', topic, partition);
    return hold.offset === offset ? hold.failure : undefined;
  }

  /** Resumes the paused partition that has waited on `dependency` longest, as a probe; its key, or undefined. */
  probe(dependency: string): string | undefined {
    const waiting = [...this.holds.values()].filter((hold) => hold.paused && hold.failure?.dependency === dependency);
    const oldest = waiting.sort((a, b) => a.failure!.lastFailureAt.getTime() - b.failure!.lastFailureAt.getTime())[0];
    if (!oldest) return undefined;
    this.resume(oldest);
    return key(oldest.topic, oldest.partition);
  }

  /** Resumes every partition that waits on `dependency`; how many. */
  release(dependency: string): number {
    const waiting = [...this.holds.values()].filter((hold) => hold.paused && hold.failure?.dependency === dependency);
    waiting.forEach((hold) => this.resume(hold));
    return waiting.length;
  }

  /** Whether any partition waits on `dependency`, paused or resumed and not fetched yet. */
  anyWaitingOn(dependency: string): boolean {
    return [...this.holds.values()].some((hold) => hold.failure?.dependency === dependency);
  }

  /** Partitions paused and waiting on `dependency`, as `topic|partition`. */
  waitingOn(dependency: string): string[] {
    return [...this.holds.values()]
      .filter((hold) => hold.paused && hold.failure?.dependency === dependency)
      .map((hold) => key(hold.topic, hold.partition));
  }

  /**
   * After a rebalance: forgets the partitions this member no longer has, and unpauses them (kafkajs keeps a pause
   * across rebalances, and the partition may come back later with its wait long over).
   */
  reassigned(assignment: Record<string, number[]>): void {
    for (const [id, hold] of this.holds) {
      if (assignment[hold.topic]?.includes(hold.partition)) continue;
      clearTimeout(hold.timer);
      this.holds.delete(id);
      this.call('resume', hold.topic, hold.partition);
    }
  }

  /** Stops every timer (the consumer is stopping; what waits stays uncommitted). */
  clear(): void {
    for (const hold of this.holds.values()) clearTimeout(hold.timer);
    this.holds.clear();
  }

  private schedule(hold: Hold, at: number): void {
    clearTimeout(hold.timer);
    hold.timer = setTimeout(() => this.due(hold), Math.max(0, at - Date.now()));
  }

  private due(hold: Hold): void {
    const dependency = hold.failure?.dependency;
    const beforeDeadline = hold.deadlineAt === undefined || Date.now() < hold.deadlineAt;
    if (dependency && this.isOpen(dependency) && beforeDeadline) {
      if (hold.deadlineAt !== undefined) this.schedule(hold, hold.deadlineAt);
      return;
    }
    this.resume(hold);
  }

  private resume(hold: Hold): void {
    clearTimeout(hold.timer);
    hold.paused = false;
    this.call('resume', hold.topic, hold.partition);
  }

  /**
   * kafkajs throws from `pause` and `resume` while its consumer group is gone (a crash of the consumer, before the
   * restart), and a timer's throw would end the process. Refused, nothing is lost: the restarted consumer fetches
   * every partition afresh from its committed offset, that is from the waiting message, and the hold is forgotten.
   */
  private call(action: 'pause' | 'resume', topic: string, partition: number): void {
    const topics: TopicPartitions[] = [{ topic, partitions: [partition] }];
    try {
      if (action === 'pause') this.consumer.pause(topics);
      else this.consumer.resume(topics);
    } catch (error) {
      const id = key(topic, partition);
      clearTimeout(this.holds.get(id)?.timer);
      this.holds.delete(id);
      this.refused(action, topic, partition, error);
    }
  }
}
