import { errorMessage } from '@app/logger';
import { Logger } from 'pino';
import { RelayEnv } from '../config/relay.env';
import { LaneSession } from '../lanes/lane-session';
import { RelayMetrics } from '../metrics/relay.metrics';
import { KafkaPublisher } from '../publish/kafka-publisher';
import { backoffDelay } from './backoff';
import { drainBatch, PublishFailedError } from './drain-batch';
import { Wakeup } from '@app/tasks/light';

/**
 * One drain loop: a lane session (its own connection, member slot and lanes) and its own producer. It drains its
 * lanes batch by batch, sleeps until a notification or the poll interval when they are empty, and backs off with
 * equal jitter while the broker or the database is unavailable. Stopping finishes the batch in progress and then gives
 * back every lock.
 */
export class DrainLoop {
  private readonly wakeup = new Wakeup();
  private readonly publisher: KafkaPublisher;
  private session?: LaneSession;
  private stopping = false;
  private loop?: Promise<void>;
  private nextRebalanceAt = 0;
  private rotation = 0;
  private readonly logger: Logger;

  constructor(
    private readonly config: RelayEnv,
    private readonly metrics: RelayMetrics,
    logger: Logger,
    private readonly name: string,
  ) {
    this.logger = logger.child({ loop: name });
    this.publisher = new KafkaPublisher(config, this.logger);
  }

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeup.signal();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      try {
        const session = await this.openSession();
        await this.rebalanceWhenDue(session);
        const lanes = this.rotatedLanes(session);
        const result = lanes.length
          ? await drainBatch(session, lanes, this.publisher, this.metrics, this.logger, this.drainSettings())
          : undefined;
        if (failures > 0) this.logger.info({ failures }, 'publishing again');
        failures = 0;
        if (!result || result.claimed < this.config.RELAY_BATCH_SIZE) await this.wakeup.wait(this.idleWaitMs());
      } catch (error) {
        failures += 1;
        await this.handleFailure(error, failures);
        if (!this.stopping) await this.wakeup.wait(backoffDelay(failures, { maxMs: this.config.RELAY_BACKOFF_MAX_MS }));
      }
    }
    await this.closeSession();
    await this.publisher.reset();
  }

  private async openSession(): Promise<LaneSession> {
    if (this.session?.broken) await this.closeSession();
    if (!this.session) {
      this.session = await LaneSession.open(this.config.DATABASE_URL, () => this.wakeup.signal());
      this.nextRebalanceAt = 0;
      this.logger.info({ slot: this.session.memberSlot }, 'joined the relays');
    }
    return this.session;
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.metrics.lanesOwned.set({ loop: this.name }, 0);
    await session?.close();
  }

  private async rebalanceWhenDue(session: LaneSession): Promise<void> {
    if (Date.now() < this.nextRebalanceAt) return;
    this.nextRebalanceAt = Date.now() + this.config.RELAY_REBALANCE_INTERVAL_MS;
    const change = await session.rebalance();
    this.metrics.members.set(change.members);
    this.metrics.lanesOwned.set({ loop: this.name }, session.lanes.length);
    if (change.acquired.length || change.released.length) {
      this.logger.info(
        { members: change.members, acquired: change.acquired, released: change.released, owned: session.lanes.length },
        'lanes rebalanced',
      );
    }
  }

  /** The owned lanes starting one further each batch, so that a full batch is shared fairly among them. */
  private rotatedLanes(session: LaneSession): number[] {
    const lanes = session.lanes;
    if (lanes.length === 0) return [];
    this.rotation = (this.rotation + 1) % lanes.length;
    return [...lanes.slice(this.rotation), ...lanes.slice(0, this.rotation)];
  }

  private idleWaitMs(): number {
    const untilRebalance = Math.max(0, this.nextRebalanceAt - Date.now());
    return Math.min(this.config.RELAY_POLL_INTERVAL_MS, untilRebalance);
  }

  private async handleFailure(error: unknown, failures: number): Promise<void> {
    this.metrics.failures.inc({ kind: 'transient' });
    const message = errorMessage(error);
    if (error instanceof PublishFailedError) {
      this.logger.warn({ err: message, rows: error.rows.length, failures }, 'publish failed; rolled back, will retry');
      await this.session?.outbox
        .recordFailedAttempt(
          error.rows.map((row) => row.id),
          message,
        )
        .catch(() => undefined);
    } else {
      this.logger.warn({ err: message, failures }, 'relay loop failed; reconnecting to the database');
      await this.closeSession();
    }
  }

  private drainSettings() {
    return { batchSize: this.config.RELAY_BATCH_SIZE, maxRequestBytes: this.config.RELAY_MAX_REQUEST_BYTES };
  }
}
