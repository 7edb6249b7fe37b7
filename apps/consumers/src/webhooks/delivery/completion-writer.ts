import { errorMessage } from '@app/consumer-runtime';
import { AttemptOutcome } from '@app/webhooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from 'pino';

const MAX_BATCH = 200;
const RETRY_MS = 500;

/**
 * Writes finished attempts in batches: while one batch is being written, the attempts that finish meanwhile queue up
 * and go in the next one, so a busy process writes one transaction for many attempts and an idle one writes each at
 * once. A batch that cannot be written (Postgres away) is tried again; meanwhile the deliveries stay `sending`, and
 * should their leases run out first, another worker sends them again (the receiver dedupes on `webhook-id`).
 */
export class CompletionWriter {
  private readonly queue: AttemptOutcome[] = [];
  private draining?: Promise<void>;
  private closing = false;

  constructor(
    private readonly write: (outcomes: AttemptOutcome[]) => Promise<void>,
    private readonly logger: Logger,
    /** After each batch is written (the dispatcher stops counting its attempts as settling). */
    private readonly written: (batch: AttemptOutcome[]) => void = () => undefined,
  ) {}

  add(outcome: AttemptOutcome): void {
    this.queue.push(outcome);
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  /** Waits until everything queued is written (or, once closing, given up on after one more try). */
  async close(): Promise<void> {
    this.closing = true;
    await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, MAX_BATCH);
      try {
        await this.write(batch);
        this.queue.splice(0, batch.length);
        this.written(batch);
      } catch (error) {
        this.logger.warn(
          { group: 'webhooks', attempts: batch.length, err: errorMessage(error) },
          'could not record webhook attempts; trying again',
        );
        if (this.closing) return;
        await sleep(RETRY_MS);
      }
    }
  }
}
