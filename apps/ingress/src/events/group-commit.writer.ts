import { Database, DatabaseUnavailableError, isDatabaseUnavailable, isPoolWaitTimeout } from '@app/db';
import { EventWithOutbox, InboundEventRepository, NewInboundEvent } from '@app/inbound-events';
import { NewOutboxRow } from '@app/outbox';
import { LOGGER } from '@app/logger';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Logger } from 'pino';
import { IngressMetrics } from '../metrics/ingress.metrics';
import { LoopShedder } from './loop-shedder';
import { OverloadedError, OverloadEpisodes, ShedReason } from './overload';

export const GROUP_COMMIT_SETTINGS = Symbol('GROUP_COMMIT_SETTINGS');

export interface GroupCommitSettings {
  /** Most deliveries one statement (one transaction, one commit) writes; 1 gives each its own. */
  maxRows: number;
  /**
   * How long the first delivery of a group waits for others, in milliseconds; 0: only for those that arrive in the
   * same turn of the event loop.
   */
  maxWaitMs: number;
  /** Statements in flight at once; deliveries that arrive meanwhile wait for one to finish and go together. */
  maxInFlight: number;
  /** Deliveries waiting for their commit (queued or in a statement) at most; more are shed at once. */
  maxPending: number;
  /** A delivery not committed within this is answered `503 overloaded`; one that waited over half of it sheds new ones. */
  commitTimeoutMs: number;
}

interface Pending extends EventWithOutbox {
  resolve: (inserted: boolean) => void;
  reject: (error: unknown) => void;
  queuedAt: number;
  timer: NodeJS.Timeout;
  /** Answered already (shed at its deadline): the statement's outcome changes nothing for it. */
  answered: boolean;
  /** Its statement is running. */
  sent: boolean;
}

/** Without a successful commit for this long, a pool that gives no connection means Postgres is the trouble. */
const RECENT_COMMIT_MS = 10_000;

/**
 * The group commit of the request plane: concurrent deliveries share one statement, so one transaction and one
 * commit (`InboundEventRepository.insertManyWithOutbox`), and each is answered from its own row. Nothing is answered
 * before its statement committed. Whether a delivery is new stays the unique constraint's decision, also between two
 * deliveries of one group; the caller tells a duplicate from a `409` as before. When a group's statement fails for a
 * reason other than the database being unavailable (a value a column refuses), each delivery of the group is
 * written again on its own, so that only the one at fault gets the error.
 *
 * It is also the ingress's admission control (Envoy's overload manager: shed early with a fast 503 rather than queue
 * without bound): a share of new deliveries while the event loop is late (LoopShedder), at most `maxPending` deliveries wait for a commit, none is taken while the oldest has waited more
 * than half of `commitTimeoutMs`, and one not committed by `commitTimeoutMs` is answered `503 overloaded` then; a
 * delivery still queued at that moment is dropped (nothing recorded), one whose statement is running may commit
 * after all, and its sender's retry is then answered `200 duplicate`.
 */
@Injectable()
export class GroupCommitWriter implements OnApplicationShutdown {
  private queue: Pending[] = [];
  private inFlight = 0;
  private inFlightRows = 0;
  private scheduled = false;
  private lastCommitAt = 0;
  private readonly episodes: OverloadEpisodes;
  private readonly loop: LoopShedder;

  constructor(
    @Inject(GROUP_COMMIT_SETTINGS) private readonly settings: GroupCommitSettings,
    private readonly database: Database,
    private readonly inboundEvents: InboundEventRepository,
    private readonly metrics: IngressMetrics,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.episodes = new OverloadEpisodes(logger);
    // The loop may be late by a twentieth of the commit timeout before deliveries are shed (100 ms for 2 s).
    this.loop = new LoopShedder(Math.max(20, settings.commitTimeoutMs / 20));
  }

  /**
   * Whether a new delivery would be answered in time: the reason to shed it now, else undefined. Cheap, so that the
   * ingress asks before it reads and verifies a body it would not take (`arriving`: the first question of a request,
   * which also draws from the event loop's shed fraction).
   */
  admit(arriving = false): ShedReason | undefined {
    if (arriving && this.loop.shouldShed()) return 'cpu_saturated';
    const pending = this.queue.length + this.inFlightRows;
    if (pending >= this.settings.maxPending) return 'queue_full';
    const oldest = this.queue[0];
    if (oldest && Date.now() - oldest.queuedAt > this.settings.commitTimeoutMs / 2) return 'queue_delay';
    return undefined;
  }

  /** Whether a statement committed a moment ago: then a pool that gives no connection is our queue, not an outage. */
  committedRecently(): boolean {
    return Date.now() - this.lastCommitAt < RECENT_COMMIT_MS;
  }

  /** Counts and logs a shed delivery (the metric by reason, one log line per episode). */
  shed(reason: ShedReason): void {
    this.metrics.shed(reason);
    this.episodes.shed(reason, {
      shedFraction: this.loop.shedFraction,
      queued: this.queue.length,
      inFlightRows: this.inFlightRows,
      oldestQueuedMs: this.queue[0] ? Date.now() - this.queue[0].queuedAt : 0,
    });
  }

  /**
   * Resolves once committed: true when inserted, false when (source, sender event id) was already taken. Rejects with
   * OverloadedError when it cannot be committed in time.
   */
  write(event: NewInboundEvent, outbox: NewOutboxRow): Promise<boolean> {
    const refused = this.admit();
    if (refused) {
      this.shed(refused);
      return Promise.reject(new OverloadedError(refused));
    }
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        event,
        outbox,
        resolve,
        reject,
        queuedAt: Date.now(),
        answered: false,
        sent: false,
        timer: setTimeout(() => this.expire(pending), this.settings.commitTimeoutMs),
      };
      this.queue.push(pending);
      if (this.queue.length >= this.settings.maxRows) this.flush();
      else this.schedule();
    });
  }

  onApplicationShutdown(): void {
    this.episodes.close();
    this.loop.close();
  }

  /** Its deadline passed: answered 503 now; taken out of the queue if its statement has not started. */
  private expire(pending: Pending): void {
    if (pending.answered) return;
    pending.answered = true;
    if (!pending.sent) this.queue = this.queue.filter((queued) => queued !== pending);
    this.shed('commit_timeout');
    pending.reject(new OverloadedError('commit_timeout', pending.sent));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const fire = () => {
      this.scheduled = false;
      this.flush();
    };
    if (this.settings.maxWaitMs > 0) setTimeout(fire, this.settings.maxWaitMs);
    else setImmediate(fire);
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.settings.maxInFlight) {
      const group =
        this.queue.length <= this.settings.maxRows ? this.queue : this.queue.slice(0, this.settings.maxRows);
      this.queue = group === this.queue ? [] : this.queue.slice(group.length);
      for (const pending of group) pending.sent = true;
      this.inFlight += 1;
      this.inFlightRows += group.length;
      void this.commit(group).finally(() => {
        this.inFlight -= 1;
        this.inFlightRows -= group.length;
        if (this.queue.length > 0) this.flush(); // they have waited already
      });
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    try {
      const dataSource = await this.database.connection();
      if (group.length === 1) {
        const inserted = await this.inboundEvents.insertWithOutbox(dataSource, group[0].event, group[0].outbox);
        this.lastCommitAt = Date.now();
        settle(group[0], (pending) => pending.resolve(inserted));
        return;
      }
      const inserted = await this.inboundEvents.insertManyWithOutbox(dataSource, group);
      this.lastCommitAt = Date.now();
      for (const pending of group) settle(pending, () => pending.resolve(inserted.has(pending.event.id)));
    } catch (error) {
      if (isPoolWaitTimeout(error) && this.committedRecently()) {
        // Postgres answers the connections in use: this is our own queue for them, not an outage.
        for (const pending of group)
          settle(pending, () => {
            this.shed('pool_timeout');
            pending.reject(new OverloadedError('pool_timeout'));
          });
        return;
      }
      if (group.length === 1 || error instanceof DatabaseUnavailableError || isDatabaseUnavailable(error)) {
        for (const pending of group) settle(pending, () => pending.reject(error));
        return;
      }
      for (const pending of group) await this.commit([pending]);
    }
  }
}

/** Answers a delivery once: not again after its deadline answered it. */
function settle(pending: Pending, answer: (pending: Pending) => void): void {
  clearTimeout(pending.timer);
  if (pending.answered) return;
  pending.answered = true;
  answer(pending);
}
