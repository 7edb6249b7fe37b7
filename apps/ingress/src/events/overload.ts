import { Logger } from 'pino';

/**
 * Why a delivery was shed with `503 overloaded`:
 * - `cpu_saturated`: the process's event loop is late (LoopShedder): a share of new deliveries is shed before their
 *   body is read;
 * - `queue_full`: as many deliveries as INGRESS_MAX_PENDING already wait for their commit;
 * - `queue_delay`: the oldest of them has waited over half of INGRESS_COMMIT_TIMEOUT_MS, so a new one would not be
 *   answered in time;
 * - `commit_timeout`: this one was not committed within INGRESS_COMMIT_TIMEOUT_MS;
 * - `pool_timeout`: no database connection came free in time while Postgres answered the others.
 */
export type ShedReason = 'cpu_saturated' | 'queue_full' | 'queue_delay' | 'commit_timeout' | 'pool_timeout';

/** A delivery the ingress will not take now. `mayBeRecorded`: its statement was running, and may still commit. */
export class OverloadedError extends Error {
  override name = 'OverloadedError';
  constructor(
    readonly reason: ShedReason,
    readonly mayBeRecorded = false,
  ) {
    super(`overloaded (${reason})`);
  }
}

/** How long a shed sender is asked to wait. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 1;

/** No shedding for this long ends an episode. */
const QUIET_MS = 5_000;

/**
 * One log line when the ingress starts shedding and one when it has shed nothing for five seconds, with how many it
 * shed and why: a burst of thousands of 503s is an episode, not thousands of lines.
 */
export class OverloadEpisodes {
  private episode?: { startedAt: number; counts: Partial<Record<ShedReason, number>>; timer?: NodeJS.Timeout };

  constructor(private readonly logger: Logger) {}

  shed(reason: ShedReason, context: Record<string, unknown>): void {
    if (!this.episode) {
      this.episode = { startedAt: Date.now(), counts: {} };
      this.logger.warn(
        { reason, ...context },
        'overloaded: shedding deliveries with 503 overloaded and Retry-After until the commits catch up',
      );
    }
    const { episode } = this;
    episode.counts[reason] = (episode.counts[reason] ?? 0) + 1;
    clearTimeout(episode.timer);
    episode.timer = setTimeout(() => this.end(), QUIET_MS);
    episode.timer.unref();
  }

  /** Ends the episode at once (the app is stopping). */
  close(): void {
    if (this.episode) this.end();
  }

  private end(): void {
    const { startedAt, counts, timer } = this.episode!;
    clearTimeout(timer);
    this.episode = undefined;
    const shed = Object.values(counts).reduce((sum, count) => sum + count, 0);
    this.logger.info(
      { shed, byReason: counts, seconds: Math.round((Date.now() - startedAt - QUIET_MS) / 100) / 10 },
      'overload over: deliveries are taken again',
    );
  }
}
