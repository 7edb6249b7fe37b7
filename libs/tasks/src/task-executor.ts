import { Wakeup } from './wakeup';

/** One round's room: the free slots (their numbers, lowest first) and the tasks in hand. */
export interface ClaimRoom<T> {
  /** Most tasks this claim may return: the free slots, at most the claim batch. */
  limit: number;
  /** The numbers of the slots the claimed tasks will get, in order (a worker id per slot reads well in logs). */
  slots: readonly number[];
  inHand: readonly T[];
}

export interface TaskExecutorDeps<T extends { id: string }> {
  /** Tasks run at once in this process at most. */
  slots: number;
  /** Idle: the next claim when nothing woke the executor before. */
  pollIntervalMs: number;
  /** Claims up to `room.limit` due tasks; what it returns starts at once, one per free slot. */
  claim(room: ClaimRoom<T>): Promise<T[]>;
  /**
   * Takes a claimed task to its next state. `signal` aborts when the executor stops or abandons its tasks: the work
   * then hands the task back (or leaves it to its lease). A rejection is reported and the slot freed.
   */
  run(task: T, signal: AbortSignal, slot: number): Promise<void>;
  /** A claim or a run failed unexpectedly (`task` set for a run); the executor goes on. */
  failed(error: unknown, task?: T): void;
  /** Most tasks one claim asks for (default 100). */
  claimBatch?: number;
  /** The wait after a failed claim (default 1 s). */
  backoffMs?: number;
  /**
   * Claim rounds in flight at once (default 1). More lets a slot that frees during a round claim without waiting for
   * it; a kind whose claim counts what the process holds (the deliveries' fair share) keeps 1.
   */
  claimConcurrency?: number;
}

/**
 * The one loop that runs durable tasks in a process, whatever their kind (the agent's model calls, outbound
 * deliveries): it claims due tasks into the free slots of a pool and starts them without waiting for them. It claims
 * again as soon as a slot frees or `wake` says new tasks were committed, else every `pollIntervalMs` (retries coming
 * due). What a claim takes and what a run does with a task is the kind's; the lease, the fencing token and the retry
 * verdict are the kind's repository's and `decideTaskFailure`'s.
 */
export class TaskExecutor<T extends { id: string }> {
  private readonly wakeup = new Wakeup();
  private readonly running = new Map<number, { task: T; abort: AbortController; done: Promise<void> }>();
  /** Slots a claim round in flight will fill. */
  private readonly reserved = new Set<number>();
  private readonly rounds = new Set<Promise<void>>();
  private backoffUntil = 0;
  private stopped = false;
  private loop?: Promise<void>;

  constructor(private readonly deps: TaskExecutorDeps<T>) {}

  start(): void {
    this.loop = this.run();
  }

  /** Something may be due: tasks were committed, a slot freed, or another process said so. */
  wake(): void {
    this.wakeup.signal();
  }

  /** The tasks being run now. */
  inHand(): T[] {
    return [...this.running.values()].map((entry) => entry.task);
  }

  /** Every task in hand is to stop now (its lease is no longer ours to keep); the executor goes on claiming. */
  abandon(): void {
    for (const entry of this.running.values()) entry.abort.abort();
  }

  /** Stops claiming, aborts the tasks in hand and waits until each was handed back or finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeup.signal();
    await this.loop;
    await Promise.all(this.rounds);
    const interrupted = [...this.running.values()];
    interrupted.forEach((entry) => entry.abort.abort());
    await Promise.all(interrupted.map((entry) => entry.done));
  }

  private async run(): Promise<void> {
    const { pollIntervalMs, claimBatch = 100, claimConcurrency = 1 } = this.deps;
    while (!this.stopped) {
      const backoff = this.backoffUntil - Date.now();
      if (backoff > 0) {
        await this.wakeup.wait(backoff);
        continue;
      }
      const slots = this.freeSlots().slice(0, claimBatch);
      if (slots.length > 0 && this.rounds.size >= claimConcurrency) {
        // A slot is free but as many rounds as allowed are in flight: the first to end makes room.
        await Promise.race(this.rounds);
        continue;
      }
      if (slots.length > 0) this.startRound(slots);
      await this.wakeup.wait(pollIntervalMs);
    }
  }

  /** Claims for `slots`; wakes the loop again when the round filled them all (more may be due). */
  private startRound(slots: number[]): void {
    slots.forEach((slot) => this.reserved.add(slot));
    const round = Promise.resolve()
      .then(() => this.deps.claim({ limit: slots.length, slots, inHand: this.inHand() }))
      .then(
        (claimed) => {
          claimed.slice(0, slots.length).forEach((task, i) => this.launch(task, slots[i]));
          if (claimed.length >= slots.length) this.wakeup.signal();
        },
        (error: unknown) => {
          this.deps.failed(error);
          this.backoffUntil = Date.now() + (this.deps.backoffMs ?? 1_000);
          this.wakeup.signal();
        },
      )
      .finally(() => {
        slots.forEach((slot) => this.reserved.delete(slot));
        this.rounds.delete(round);
      });
    this.rounds.add(round);
  }

  private freeSlots(): number[] {
    const free: number[] = [];
    for (let slot = 0; slot < this.deps.slots; slot++)
      if (!this.running.has(slot) && !this.reserved.has(slot)) free.push(slot);
    return free;
  }

  private launch(task: T, slot: number): void {
    const abort = new AbortController();
    const done = Promise.resolve()
      .then(() => this.deps.run(task, abort.signal, slot))
      .catch((error: unknown) => this.deps.failed(error, task))
      .finally(() => {
        this.running.delete(slot);
        this.wakeup.signal();
      });
    this.running.set(slot, { task, abort, done });
  }
}
