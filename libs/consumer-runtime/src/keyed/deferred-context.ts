import { CloudEvent } from '@app/contracts';
import { Logger } from 'pino';
import { EntityManager } from 'typeorm';
import { BatchWriter, ConsumerContext } from '../handler';
import { CapturedWrite } from './keyed-committer';

/**
 * The context of a handler in a group that applies records concurrently by key: the handler runs before the
 * transaction (its calls to providers overlap with other keys' instead of holding a connection each), so there is no
 * manager; what it writes goes through `write` and commits afterwards with the event's dedupe row.
 */
export class DeferredContext implements ConsumerContext {
  readonly writes: CapturedWrite[] = [];
  readonly batch: readonly CloudEvent[];
  private childLogger?: Logger;

  constructor(
    readonly group: string,
    readonly topic: string,
    readonly partition: number,
    readonly offset: string,
    event: CloudEvent,
    readonly attempt: number,
    readonly replayCount: number,
    private readonly parentLogger: Logger,
  ) {
    this.batch = [event];
  }

  get eventId(): string {
    return this.batch[0].id;
  }

  get manager(): EntityManager {
    throw new Error(
      `group ${this.group} applies records concurrently by key: its handlers run before the consumer transaction, ` +
        'so ctx.manager does not exist; queue writes with ctx.write(writer, row), which commit with the dedupe row',
    );
  }

  write<T>(writer: BatchWriter<T>, row: T): void {
    this.writes.push({ writer: writer as BatchWriter<unknown>, row });
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
