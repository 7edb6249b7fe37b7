import { Database, managerRows } from '@app/db';
import { LOGGER } from '@app/logger';
import { OutboxRepository } from '@app/outbox';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Logger } from 'pino';
import { Problem } from '@app/http';
import { IngressMetrics } from '../metrics/ingress.metrics';

export const BACKPRESSURE_SETTINGS = Symbol('BACKPRESSURE_SETTINGS');

export interface BackpressureSettings {
  /** Unpublished outbox rows at which new deliveries get 429; 0 turns backpressure off. */
  maxBacklog: number;
  checkIntervalMs: number;
  retryAfterSeconds: number;
}

/**
 * Backpressure before collapse: when the relay cannot keep up (broker down, relay stopped), the outbox backlog grows;
 * past the threshold the ingress answers 429 with Retry-After instead of growing the queue without a drain plan. The
 * backlog is sampled in the background, never counted on the request path.
 */
@Injectable()
export class BackpressureService implements OnApplicationBootstrap, OnApplicationShutdown {
  private backlog = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(BACKPRESSURE_SETTINGS) private readonly settings: BackpressureSettings,
    private readonly database: Database,
    private readonly metrics: IngressMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.settings.maxBacklog === 0) return;
    this.timer = setInterval(() => void this.sample(), this.settings.checkIntervalMs);
    this.timer.unref();
    void this.sample();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Throws 429 while the backlog is at or over the threshold. */
  check(): void {
    if (this.settings.maxBacklog > 0 && this.backlog >= this.settings.maxBacklog) {
      throw new Problem(
        429,
        'backpressure',
        `hookrail is behind: ${this.backlog} or more events wait to be published (limit ${this.settings.maxBacklog}); nothing was recorded, retry later`,
        {},
        { 'retry-after': String(this.settings.retryAfterSeconds) },
      );
    }
  }

  async sample(): Promise<void> {
    try {
      const outbox = new OutboxRepository(managerRows((await this.database.connection()).manager));
      const backlog = await outbox.countUnpublished(this.settings.maxBacklog);
      const wasOver = this.backlog >= this.settings.maxBacklog;
      this.backlog = backlog;
      this.metrics.backlog(backlog);
      const isOver = backlog >= this.settings.maxBacklog;
      if (isOver !== wasOver) {
        this.logger.warn(
          { backlog, limit: this.settings.maxBacklog },
          isOver ? 'outbox backlog over the limit: answering 429' : 'outbox backlog back under the limit',
        );
      }
    } catch {
      // Database unreachable: requests already get 503 from the write itself; keep the last sample.
    }
  }
}
