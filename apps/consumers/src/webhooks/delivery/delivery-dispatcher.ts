import { errorMessage } from '@app/consumer-runtime';
import { TaskExecutor } from '@app/tasks';
import { AttemptOutcome, ClaimRequest, ClaimedDelivery } from '@app/webhooks';
import { Logger } from 'pino';

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

/**
 * Outbound deliveries as a kind of task on the task executor: a pool of `workers` concurrent attempts. An endpoint
 * gets at most its in-flight cap (over all processes) and at most its share of this pool (the claim's room), so
 * endpoints that hang hold their shares and a part of the pool stays free for the others. An attempt stopped by the
 * executor hands its delivery back; a delivered attempt frees its slot before its outcome is recorded.
 */
export class DeliveryDispatcher {
  private readonly executor: TaskExecutor<ClaimedDelivery>;
  /** Delivered attempts not yet recorded, id → fencing token: they hold no connection, so the cap does not count them. */
  private readonly settled = new Map<string, string>();

  constructor(private readonly deps: DispatcherDeps) {
    const { settings, logger } = deps;
    this.executor = new TaskExecutor<ClaimedDelivery>({
      slots: settings.workers,
      pollIntervalMs: settings.pollIntervalMs,
      claim: ({ limit, inHand }) =>
        deps.claim({
          workerId: settings.workerId,
          leaseOwner: deps.leaseOwner(),
          limit,
          workers: settings.workers,
          leaseMs: settings.leaseMs,
          endpointConcurrency: settings.endpointConcurrency,
          held: heldPerEndpoint(inHand),
          settled: this.settled,
        }),
      run: (delivery, signal) => this.send(delivery, signal),
      failed: (error, delivery) =>
        delivery
          ? logger.error(
              { group: 'webhooks', eventId: delivery.eventId, deliveryId: delivery.id, err: errorMessage(error) },
              'webhook attempt failed unexpectedly; its lease will run out and another worker will send it',
            )
          : logger.error({ group: 'webhooks', err: errorMessage(error) }, 'could not claim webhook deliveries'),
    });
  }

  start(): void {
    this.executor.start();
  }

  /** Something may be due: new deliveries were committed, or another process said so. */
  wake(): void {
    this.executor.wake();
  }

  /** These attempts are in the table now: no longer settling; their endpoints' next deliveries may be due. */
  recorded(outcomes: readonly AttemptOutcome[]): void {
    for (const { deliveryId, fencingToken } of outcomes)
      if (this.settled.get(deliveryId) === fencingToken) this.settled.delete(deliveryId);
    this.executor.wake();
  }

  /**
   * The workers' session is gone, and with it the lease owner of every attempt in hand: other processes may send them
   * now, so they stop here (and go back, unless another process has them already).
   */
  abandon(): void {
    this.executor.abandon();
  }

  /** Stops claiming, stops the attempts in hand and hands their deliveries back for any worker to take. */
  stop(): Promise<void> {
    return this.executor.stop();
  }

  private async send(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    if (delivery.priorState === 'sending') this.deps.leaseExpired(delivery);
    const outcome = await this.deps.attempt(delivery, signal);
    if (!outcome) return this.deps.release([delivery]);
    // Only a delivered attempt frees its slot before it is recorded: after a failure (a 410 above all, which
    // disables the endpoint) the endpoint gets no new attempt until the outcome is in the table.
    if (outcome.result === 'delivered') this.settled.set(delivery.id, delivery.fencingToken);
    this.deps.completed(outcome);
  }
}

/** Attempts in flight here, per endpoint. */
function heldPerEndpoint(inHand: readonly ClaimedDelivery[]): Map<string, number> {
  const held = new Map<string, number>();
  for (const delivery of inHand) held.set(delivery.endpointId, (held.get(delivery.endpointId) ?? 0) + 1);
  return held;
}
