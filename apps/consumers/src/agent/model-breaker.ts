import { releaseAgentTasksWaitingOn } from '@app/agent-tasks';
import { BreakerWaiters, Failure, GroupBreakers, GroupBreakersDeps } from '@app/consumer-runtime';
import { MODEL_PROVIDER } from './model.client';

/**
 * What a worker slot may claim now: any due task (breaker closed), any due task as the probe, or only a task whose
 * retry ceiling is spent (its last try).
 */
export type ClaimScope = 'any' | 'probe' | 'past-ceiling';

/** The source a probe's failure is reported from, so that the breaker tells it from the other slots' failures. */
const PROBE = 'probe';

/**
 * The model's circuit breaker, shared by every worker slot of this process: the runtime's GroupBreakers (its state
 * machine, probe timer, log lines, `hookrail_consumer_breaker_*` metrics and `dependency_breakers` row), with the
 * slots' claims as what it holds back. Closed, the slots claim as usual. Open (`CONSUMER_BREAKER_FAILURES` model
 * failures with no answer in between), they claim only tasks whose ceiling is spent, and, each time the breaker's
 * timer grants a probe, one slot claims the task due longest and calls the model; a failed probe doubles the interval
 * (never shorter than the model's `Retry-After`). The first answer of any call closes it, and every task waiting on
 * the model in its backoff becomes due.
 */
export class ModelBreaker implements BreakerWaiters {
  private readonly breakers: GroupBreakers;
  private probeGranted = false;
  private releasing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: Omit<GroupBreakersDeps, 'logLines'> & {
      /** The worker slots of this process (what a close lets go). */
      slots: number;
    },
  ) {
    this.breakers = new GroupBreakers({
      ...deps,
      logLines: {
        opened: 'model unavailable: breaker open, agent workers stop claiming tasks',
        closed: 'model answers again: breaker closed, agent workers claim tasks',
      },
    });
    this.breakers.attach(this);
  }

  get isOpen(): boolean {
    return this.breakers.isOpen(MODEL_PROVIDER);
  }

  /** What a slot about to claim may take; `probe` is that slot's to use, or to give back with `probeUnused`. */
  claimScope(): ClaimScope {
    if (!this.isOpen) return 'any';
    if (!this.probeGranted) return 'past-ceiling';
    this.probeGranted = false;
    return 'probe';
  }

  /** The probe found no due task: the next slot to look takes it. */
  probeUnused(): void {
    if (this.isOpen) this.probeGranted = true;
  }

  /** The model answered a call (a result, or a refusal): it is up. */
  answered(): void {
    this.breakers.answered(MODEL_PROVIDER);
  }

  /** A call claimed with `scope` by `workerId` found its dependency down. */
  unavailable(failure: Pick<Failure, 'error' | 'dependency' | 'retryAfterMs'>, scope: ClaimScope, workerId: string) {
    this.breakers.failed(failure, scope === 'probe' ? PROBE : workerId);
  }

  /** Stops the probe timer and waits for the state writes under way. */
  async stop(): Promise<void> {
    await this.breakers.stop();
    await this.releasing;
  }

  /** BreakerWaiters: the breaker's timer grants a probe; the next slot to look for a task uses it. */
  probe(): string {
    this.probeGranted = true;
    return PROBE;
  }

  /** BreakerWaiters: the slots always wait while the breaker is open (tasks may come at any time). */
  anyWaitingOn(): boolean {
    return true;
  }

  /** BreakerWaiters: the breaker closed; the slots claim again, and the tasks waiting on the model are due now. */
  release(dependency: string): number {
    this.probeGranted = false;
    const { dataSource, logger, group } = this.deps;
    this.releasing = releaseAgentTasksWaitingOn(dataSource, dependency).then(
      (released) => logger.debug({ group, dependency, released }, 'tasks waiting on the dependency due now'),
      (error: Error) =>
        logger.warn(
          { group, dependency, err: error.message },
          'could not make the waiting tasks due; their backoff runs',
        ),
    );
    return this.deps.slots;
  }
}
