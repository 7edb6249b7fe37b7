import { errorMessage } from '@app/consumer-runtime';
import { Logger } from 'pino';
import { ClaimedDelivery, ClaimRequest } from './deliveries.repository';
import { AttemptOutcome } from './outcomes.repository';
import { Wakeup } from '@app/tasks';

export interface DispatcherDeps {
  claim(request: ClaimRequest): Promise<ClaimedDelivery[]>;
  attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<AttemptOutcome | undefined>;
  completed(outcome: AttemptOutcome): void;
  release(deliveries: ClaimedDelivery[]): Promise<void>;
  leaseExpired(delivery: ClaimedDelivery): void;
  /** This process's lease-owner key for its claims; null while its workers' session is down. */
  leaseOwner(): number | null;
  logger: Logger;
  settings: {
    workerId: string;
    /** Deliveries in flight in this process at most: the global pool. */
    workers: number;
    leaseMs: number;
    endpointConcurrency: number;
    pollIntervalMs: number;
  };
}

const CLAIM_BATCH = 100;
const BACKOFF_MS = 1_000;

/**
 * The delivery workers of one process: a loop that claims due deliveries into free slots of a pool of
 * `workers` concurrent attempts and starts them, without waiting for them. An endpoint gets at most its in-flight cap
 * (over all processes) and at most its share of this pool (the claim's room), so endpoints that hang hold their
 * shares and a part of the pool stays free for the others. The loop claims again as soon as a slot frees or new
 * deliveries are committed, else every `pollIntervalMs` (retries coming due).
 */
export class DeliveryDispatcher {
  private readonly wakeup = new Wakeup();
  private readonly inFlight = new Map<
    string,
    { delivery: ClaimedDelivery; abort: AbortController; done: Promise<void> }
  >();
  /** Delivered attempts not yet recorded, id → fencing token: they hold no connection, so the cap does not count them. */
  private readonly settled = new Map<string, string>();
  private stopped = false;
  private loop?: Promise<void>;

  constructor(private readonly deps: DispatcherDeps) {}

  start(): void {
    this.loop = this.run();
  }

  /** Something may be due: new deliveries were committed, or another process said so. */
  wake(): void {
    this.wakeup.signal();
  }

  /** These attempts are in the table now: no longer settling; their endpoints' next deliveries may be due. */
  recorded(outcomes: readonly AttemptOutcome[]): void {
    for (const { deliveryId, fencingToken } of outcomes)
      if (this.settled.get(deliveryId) === fencingToken) this.settled.delete(deliveryId);
    this.wakeup.signal();
  }

  /**
   * The workers' session is gone, and with it the lease owner of every attempt in hand: other processes may send them
   * now, so they stop here (and go back, unless another process has them already).
   */
  abandon(): void {
    for (const entry of this.inFlight.values()) entry.abort.abort();
  }

  /** Stops claiming, stops the attempts in hand and hands their deliveries back for any worker to take. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeup.signal();
    await this.loop;
    const interrupted = [...this.inFlight.values()];
    interrupted.forEach((entry) => entry.abort.abort());
    await Promise.all(interrupted.map((entry) => entry.done));
  }

  private async run(): Promise<void> {
    const { settings, logger } = this.deps;
    while (!this.stopped) {
      const free = settings.workers - this.inFlight.size;
      const wanted = Math.min(free, CLAIM_BATCH);
      let claimed: ClaimedDelivery[] = [];
      if (wanted > 0) {
        try {
          claimed = await this.deps.claim({
            workerId: settings.workerId,
            leaseOwner: this.deps.leaseOwner(),
            limit: wanted,
            workers: settings.workers,
            leaseMs: settings.leaseMs,
            endpointConcurrency: settings.endpointConcurrency,
            held: this.held(),
            settled: this.settled,
          });
        } catch (error) {
          logger.error({ group: 'webhooks', err: errorMessage(error) }, 'could not claim webhook deliveries');
          await this.wakeup.wait(BACKOFF_MS);
          continue;
        }
        for (const delivery of claimed) this.launch(delivery);
      }
      if (wanted > 0 && claimed.length === wanted) continue;
      await this.wakeup.wait(settings.pollIntervalMs);
    }
  }

  /** Attempts in flight here, per endpoint. */
  private held(): Map<string, number> {
    const held = new Map<string, number>();
    for (const { delivery } of this.inFlight.values())
      held.set(delivery.endpointId, (held.get(delivery.endpointId) ?? 0) + 1);
    return held;
  }

  private launch(delivery: ClaimedDelivery): void {
    if (delivery.priorState === 'sending') this.deps.leaseExpired(delivery);
    const abort = new AbortController();
    const done = this.deps
      .attempt(delivery, abort.signal)
      .then(async (outcome) => {
        if (!outcome) return this.deps.release([delivery]);
        // Only a delivered attempt frees its slot before it is recorded: after a failure (a 410 above all, which
        // disables the endpoint) the endpoint gets no new attempt until the outcome is in the table.
        if (outcome.result === 'delivered') this.settled.set(delivery.id, delivery.fencingToken);
        this.deps.completed(outcome);
      })
      .catch((error: unknown) =>
        this.deps.logger.error(
          { group: 'webhooks', eventId: delivery.eventId, deliveryId: delivery.id, err: errorMessage(error) },
          'webhook attempt failed unexpectedly; its lease will run out and another worker will send it',
        ),
      )
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.wakeup.signal();
      });
    this.inFlight.set(delivery.id, { delivery, abort, done });
  }
}
