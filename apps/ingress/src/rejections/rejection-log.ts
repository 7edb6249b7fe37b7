import { Database, managerRows } from '@app/db';
import { LOGGER } from '@app/logger';
import { NewSourceRejection, SourceRejectionsRepository } from '@app/rejections';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Logger } from 'pino';
import { IngressMetrics } from '../metrics/ingress.metrics';

export const REJECTION_SETTINGS = Symbol('REJECTION_SETTINGS');

export interface RejectionSettings {
  /** Rows kept per source: after each write, older ones are deleted. */
  keptPerSource: number;
  /** Characters of a rejected body kept. */
  bodyPrefixChars: number;
}

/** Rejections waiting for their write; beyond this a flood of bad requests is counted, not kept. */
const MAX_PENDING = 200;
/** How long a rejection waits for others to share its write. */
const FLUSH_DELAY_MS = 250;
const WARN_EVERY_MS = 60_000;

/**
 * Keeps the newest rejected deliveries of each source in `source_rejections`, off the request path: a rejection is
 * queued in memory and written with the others of the next quarter second in one statement, then each source written
 * to is cut back to its newest `keptPerSource` rows. The queue is bounded (200); what does not fit, or cannot be
 * written (the database is down), is counted in `hookrail_ingress_rejections_unrecorded_total` and dropped: the
 * answer to the sender never waits for it, and it never touches `inbound_events` or `outbox`.
 */
@Injectable()
export class RejectionLog implements BeforeApplicationShutdown {
  private pending: NewSourceRejection[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private lastWarnAt = 0;

  constructor(
    private readonly database: Database,
    @Inject(REJECTION_SETTINGS) readonly settings: RejectionSettings,
    private readonly metrics: IngressMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  record(rejection: NewSourceRejection): void {
    if (this.pending.length >= MAX_PENDING) {
      this.metrics.rejectionsUnrecorded(1);
      return;
    }
    this.pending.push(rejection);
    this.schedule();
  }

  /** Writes what is queued; resolves once the queue is empty (or given up). */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
      this.schedule();
    });
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private schedule(): void {
    if (this.timer || this.flushing || this.pending.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_DELAY_MS);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_PENDING);
      try {
        const repository = new SourceRejectionsRepository(managerRows((await this.database.connection()).manager));
        await repository.insertMany(batch);
        await repository.keepNewest(
          [...new Set(batch.map((rejection) => rejection.source))],
          this.settings.keptPerSource,
        );
      } catch (error) {
        this.metrics.rejectionsUnrecorded(batch.length);
        if (Date.now() - this.lastWarnAt >= WARN_EVERY_MS) {
          this.lastWarnAt = Date.now();
          this.logger.warn(
            { err: (error as Error).message, dropped: batch.length },
            'rejected deliveries not recorded',
          );
        }
      }
    }
  }
}
