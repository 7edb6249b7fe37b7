import { createKafka } from '@app/kafka';
import { errorMessage } from '@app/logger';
import { Logger } from 'pino';

/** How often an unreachable broker is tried again, and so how often it is logged. */
export const BROKER_WATCH_INTERVAL_MS = 5_000;

/**
 * From start until the brokers first answer: one connection attempt every few seconds, each failure one warning
 * that names KAFKA_BROKERS and the error, then one line once connected. The drain loops do not wait for it (they
 * connect on the first rows and back off on their own); it makes a broker that cannot be reached visible before any
 * row arrives. Its client logs nothing itself, and gives up at once, so each try is exactly one line.
 */
export class BrokerWatch {
  private timer?: NodeJS.Timeout;
  private attempt?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly brokers: string[],
    private readonly logger: Logger,
    private readonly intervalMs = BROKER_WATCH_INTERVAL_MS,
  ) {}

  start(): void {
    this.attempt = this.tryOnce();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.attempt;
  }

  private async tryOnce(): Promise<void> {
    const startedAt = Date.now();
    const where = `KAFKA_BROKERS=${this.brokers.join(',')}`;
    const admin = createKafka('hookrail-relay-watch', this.brokers, undefined, { retry: { retries: 0 } }).admin();
    try {
      await admin.connect();
      if (!this.stopped) this.logger.info({ brokers: this.brokers }, `connected to Kafka at ${where}`);
      return;
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn(
        { brokers: this.brokers, err: errorMessage(error) },
        `cannot reach Kafka at ${where}; publishing waits, trying again every ${this.intervalMs / 1000} s`,
      );
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    if (this.stopped) return;
    const wait = Math.max(0, startedAt + this.intervalMs - Date.now());
    this.timer = setTimeout(() => (this.attempt = this.tryOnce()), wait);
  }
}
