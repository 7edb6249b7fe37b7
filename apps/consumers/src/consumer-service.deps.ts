import { ConsumerMetrics, WrittenRows } from '@app/consumer-runtime';
import { OutboxNotifier, writeOutboxRows } from '@app/outbox';
import { Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { ConsumersEnv } from './config/consumers.env';

/**
 * What a consumer service's providers may inject besides LOGGER, built once per group by startConsumers: services
 * whose work reaches past the handler's transaction (an intent committed before an email, a worker pool) need them.
 * `E` is the group's own configuration class (`env` in its definition): `config` holds the shared variables and its.
 */
export class ConsumerServiceDeps<E extends object = object> {
  private readonly commitHooks: Array<(written: WrittenRows) => void> = [];

  constructor(
    readonly group: string,
    readonly config: ConsumersEnv & E,
    readonly dataSource: DataSource,
    readonly kafka: Kafka,
    readonly metrics: ConsumerMetrics,
    /** The group's dead-letter topic as this deployment names it. */
    readonly dltTopic: string,
    /** Wakes the relays; services that write outbox rows call it after their commits (see `afterCommit`). */
    readonly outboxNotifier: OutboxNotifier = new OutboxNotifier(async () => undefined),
    /** A pool whose commits do not wait for the disk, for bookkeeping around provider calls (`bookkeepingQuery`). */
    readonly bookkeeping: DataSource = dataSource,
  ) {}

  /** A topic as this deployment names it (`KAFKA_NAMESPACE` prefix). */
  topic(name: string): string {
    return `${this.config.KAFKA_NAMESPACE}${name}`;
  }

  /**
   * Runs `hook` after every database commit of this group's handler transactions, before the offset commit: a
   * service whose handlers write outbox rows wakes the relays here (`outboxNotifier.committed()`).
   */
  afterCommit(hook: (written: WrittenRows) => void): void {
    this.commitHooks.push(hook);
  }

  /** Called by the runtime after each database commit of the group, with what its handlers wrote. */
  committed(written: WrittenRows): void {
    for (const hook of this.commitHooks) hook(written);
  }
}

/** The lanes of the outbox rows a committed transaction's handlers wrote (`ctx.write(writeOutboxRows, …)`). */
export function outboxLanesOf(written: WrittenRows): Set<number> {
  return new Set(written.rowsOf(writeOutboxRows).map((row) => row.lane));
}
