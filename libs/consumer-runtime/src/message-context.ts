import { CloudEvent } from '@app/contracts';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { BatchWriter, ConsumerContext } from './handler';
import { PendingWrites } from './pending-writes';

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
    readonly manager: EntityManager,
    readonly batch: readonly CloudEvent[],
    private readonly pending: PendingWrites,
    private readonly parentLogger: Logger,
  ) {}

  write<T>(writer: BatchWriter<T>, row: T): void {
    this.pending.add(writer, row);
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
