/** Where a record of the window is: waiting its turn, being worked on, waiting for a retry, or finished. */
export type WindowState = 'queued' | 'running' | 'waiting' | 'done';

/** One record of a partition's window. `item` is whatever the caller keeps with it (the message, its failure). */
export interface WindowEntry<T> {
  readonly offset: bigint;
  /** The Kafka key; records without one are each their own key (nothing orders them). */
  readonly key: string;
  state: WindowState;
  item: T;
}

/**
 * The records of one partition that are fetched and not yet committed, in offset order (Confluent Parallel
 * Consumer's and Decaton's out-of-order completion with an in-order commit). Records of one key are handed out
 * strictly one after another in offset order; records of different keys at once. `committable()` is the offset the
 * group may commit: the lowest record not done, so a crash redelivers at most this window (whose finished records the
 * dedupe table then skips). Pure bookkeeping: no timers, no I/O.
 */
export class PartitionWindow<T> {
  /** Every record not yet committed past, by offset, in offset order (a Map keeps insertion order). */
  private readonly entries = new Map<bigint, WindowEntry<T>>();
  /** Per key, its records not done, in offset order; the first is the one that may run. */
  private readonly keys = new Map<string, WindowEntry<T>[]>();
  /** Keys whose first record is queued, oldest first; retries before new work so the commit moves on. */
  private readonly retried = new Set<string>();
  private readonly fresh = new Set<string>();
  /** The offset below which every record is done (the next offset to commit), once a record was added. */
  private watermark?: bigint;
  /** The offset after the newest record added. */
  private end?: bigint;
  private running = 0;

  /** Records held: not committed past yet (done ones behind an unfinished one included). */
  get size(): number {
    return this.entries.size;
  }

  /** Records being worked on now. */
  get inFlight(): number {
    return this.running;
  }

  /** The offset the next fetch should bring, or undefined before the first record. */
  get nextOffset(): bigint | undefined {
    return this.end;
  }

  /**
   * Adds a fetched record, queued; undefined (nothing changes) when the window holds it already or it is below the
   * watermark: a refetch after a rebalance that kept the partition here brings records this window knows.
   */
  add(offset: bigint, key: string | null, item: T): WindowEntry<T> | undefined {
    if (this.end !== undefined && offset < this.end) return undefined;
    const entry: WindowEntry<T> = { offset, key: key ?? `\u0000${offset}`, state: 'queued', item };
    this.entries.set(offset, entry);
    this.watermark ??= offset;
    this.end = offset + 1n;
    const queue = this.keys.get(entry.key);
    if (queue) queue.push(entry);
    else {
      this.keys.set(entry.key, [entry]);
      this.fresh.add(entry.key);
    }
    return entry;
  }

  /** The next record that may start (its key's oldest, queued), marked running; undefined if none may. */
  take(): WindowEntry<T> | undefined {
    const key = first(this.retried) ?? first(this.fresh);
    if (key === undefined) return undefined;
    this.retried.delete(key);
    this.fresh.delete(key);
    const entry = this.keys.get(key)![0];
    entry.state = 'running';
    this.running++;
    return entry;
  }

  /** A running record must wait (a retry later, a dependency down): its key holds, the others go on. */
  wait(entry: WindowEntry<T>): void {
    this.leave(entry);
    entry.state = 'waiting';
  }

  /** A waiting record may run again; it goes before new work. */
  ready(entry: WindowEntry<T>): void {
    if (entry.state !== 'waiting') return;
    entry.state = 'queued';
    this.retried.add(entry.key);
  }

  /**
   * A record is finished (applied, skipped, dead-lettered or parked): its key's next record may start. Only the
   * first record of its key can be finished (the one handed out, or one nothing needs to be done for).
   */
  complete(entry: WindowEntry<T>): void {
    const queue = this.keys.get(entry.key);
    if (entry.state === 'done' || queue?.[0] !== entry) return;
    this.leave(entry);
    entry.state = 'done';
    this.fresh.delete(entry.key);
    this.retried.delete(entry.key);
    queue.shift();
    if (queue.length === 0) this.keys.delete(entry.key);
    else this.fresh.add(entry.key);
    this.advance();
  }

  /** The offset to commit: every record below it is done. Undefined before the first record. */
  committable(): bigint | undefined {
    return this.watermark;
  }

  /** Records in a state, e.g. the waiting ones (to cancel their timers when the partition goes). */
  inState(state: WindowState): WindowEntry<T>[] {
    return [...this.entries.values()].filter((entry) => entry.state === state);
  }

  /** Whether a record of this key is being worked on. */
  isRunning(key: string): boolean {
    return this.keys.get(key)?.[0]?.state === 'running';
  }

  private leave(entry: WindowEntry<T>): void {
    if (entry.state === 'running') this.running--;
  }

  private advance(): void {
    for (const [offset, entry] of this.entries) {
      if (entry.state !== 'done') {
        this.watermark = offset;
        return;
      }
      this.entries.delete(offset);
    }
    this.watermark = this.end;
  }
}

function first<T>(set: Set<T>): T | undefined {
  for (const value of set) return value;
  return undefined;
}
