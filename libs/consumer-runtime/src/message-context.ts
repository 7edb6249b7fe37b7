import { CloudEvent } from '@app/contracts';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { BatchWriter, ConsumerContext } from './handler';
import { PendingWrites } from './pending-writes';

/** Where a handler runs: its transaction's manager (none by key), the events applied with it, and its queued rows. */
export interface HandlerScope {
  /** Absent in a group that applies records by key: its handlers run before the transaction. */
  manager?: EntityManager;
  events: readonly CloudEvent[];
  pending: PendingWrites;
}

/** A ConsumerContext whose child logger is made only when a handler asks for it (most never do). */
export class MessageContext implements ConsumerContext {
  private childLogger?: Logger;

  constructor(
    readonly group: string,
    readonly topic: string,
    readonly partition: number,
    readonly offset: string,
    readonly eventId: string,
    readonly attempt: number,
    readonly replayCount: number,
    private readonly scope: HandlerScope,
    private readonly parentLogger: Logger,
  ) {}

  get manager(): EntityManager {
    if (this.scope.manager) return this.scope.manager;
    throw new Error(
      `group ${this.group} applies records concurrently by key: its handlers run before the consumer transaction, ` +
        'so ctx.manager does not exist; queue writes with ctx.write(writer, row), which commit with the dedupe row',
    );
  }

  get batch(): readonly CloudEvent[] {
    return this.scope.events;
  }

  write<T>(writer: BatchWriter<T>, row: T): void {
    this.scope.pending.add(writer, row);
  }

  get logger(): Logger {
    this.childLogger ??= this.parentLogger.child({
      eventId: this.eventId,
      topic: this.topic,
      partition: this.partition,
      offset: this.offset,
      group: this.group,
    });
    return this.childLogger;
  }
}
