import { Consumer } from 'kafkajs';
import { Logger } from 'pino';
import { errorMessage } from './classify-error';

interface Pending {
  topic: string;
  partition: number;
  offset: bigint;
}

const REBALANCE_ERRORS = new Set([
  'REBALANCE_IN_PROGRESS',
  'ILLEGAL_GENERATION',
  'UNKNOWN_MEMBER_ID',
  'NOT_COORDINATOR',
]);

/**
 * A group's offset commits. The runtime marks an offset once everything below it is finished (its transaction
 * committed, its dead letter acknowledged); the marks of all partitions go to the broker in one request, at most
 * every `minIntervalMs`, so that a group applying small batches does not send a commit per batch. Nothing is lost by
 * the wait: a crash redelivers what was finished and not committed, and the dedupe table skips it. A failed commit is
 * kept and sent again; `flush` sends what is marked now (the group is stopping or rebalancing).
 */
export class OffsetCommits {
  private readonly pending = new Map<string, Pending>();
  private sending?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private lastSentAt = 0;

  constructor(
    private readonly deps: {
      group: string;
      consumer: Pick<Consumer, 'commitOffsets'>;
      logger: Logger;
      minIntervalMs: number;
    },
  ) {}

  /** `offset` (the next to read) may be committed for the partition. */
  mark(topic: string, partition: number, offset: bigint): void {
    const id = `${topic}|${partition}`;
    const marked = this.pending.get(id);
    if (marked && marked.offset >= offset) return;
    this.pending.set(id, { topic, partition, offset });
    this.schedule(this.lastSentAt + this.deps.minIntervalMs - Date.now());
  }

  /** The partition left this member: what is marked for it is not committed by this member any more. */
  forget(topic: string, partition: number): void {
    this.pending.delete(`${topic}|${partition}`);
  }

  /** After a rebalance: forgets the partitions this member no longer has. */
  retain(assignment: Record<string, number[]>): void {
    for (const [id, { topic, partition }] of this.pending) {
      if (!assignment[topic]?.includes(partition)) this.pending.delete(id);
    }
  }

  /** Sends what is marked now, and waits for it. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.sending) await this.sending;
    if (this.pending.size > 0) await this.send();
  }

  /** Stops the timer (the group is stopping); call `flush` first to commit what is marked. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(inMs: number): void {
    if (this.timer || this.sending) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.send();
      },
      Math.max(0, inMs),
    );
  }

  private send(): Promise<void> {
    const offsets = [...this.pending.values()];
    this.pending.clear();
    this.lastSentAt = Date.now();
    this.sending = this.deps.consumer
      .commitOffsets(offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset: offset.toString() })))
      .then(
        () => undefined,
        (error: { type?: string; message?: string }) => {
          // Kept, unless a newer mark came meanwhile; sent again with the next ones.
          for (const offset of offsets) {
            const id = `${offset.topic}|${offset.partition}`;
            if (!this.pending.has(id)) this.pending.set(id, offset);
          }
          this.deps.logger[error.type && REBALANCE_ERRORS.has(error.type) ? 'debug' : 'warn'](
            { group: this.deps.group, err: errorMessage(error) },
            'could not commit offsets; trying again (what is finished and not committed is skipped by the dedupe table when redelivered)',
          );
        },
      )
      .finally(() => {
        this.sending = undefined;
        if (this.pending.size > 0) this.schedule(this.deps.minIntervalMs);
      });
    return this.sending;
  }
}
