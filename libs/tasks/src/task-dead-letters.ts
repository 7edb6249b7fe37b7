import { buildDeadLetter, ConsumerMetrics, errorMessage, Failure, produceDeadLetter } from '@app/consumer-runtime';
import { CloudEvent, HOOKRAIL_HEADERS, toKafkaRecord } from '@app/contracts';
import { DeadLettersRepository } from '@app/dead-letters';
import { OutboxNotifier } from '@app/outbox';
import { KafkaMessage, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';

/** One dead letter to produce for one or more dead task rows of the same event. */
export interface DeadTask {
  /** The rows it stands for: marked dead-lettered once the broker has it. */
  rowIds: string[];
  event: CloudEvent;
  /** The value exactly as it was consumed, when the rows kept it; otherwise the event is encoded again. */
  value?: string;
  /** Where the event was consumed: the dead letter's origin, and its identity in the dead-letter store. */
  topic: string;
  partition: number;
  offset: string;
  failure: Failure;
  /**
   * Which replay of the event's dead letter the rows belong to: a number for exactly that replay (0, none), or
   * `latest` for the newest replay if there is one.
   */
  replay: number | 'latest';
  /** The log line and its fields beyond the ones every dead letter logs. */
  log: { message: string; fields?: Record<string, unknown> };
}

/** A kind of task's dead rows: its owner's statements, run in the transaction that produces their dead letters. */
export interface DeadTaskRows {
  /** Locks up to `limit` dead rows not yet dead-lettered (`FOR UPDATE SKIP LOCKED`), as dead letters to produce. */
  takeDead(manager: EntityManager, limit: number): Promise<DeadTask[]>;
  markDeadLettered(manager: EntityManager, rowIds: string[]): Promise<void>;
}

export interface TaskDeadLettersDeps {
  /** The consumer group whose tasks these are, and its dead-letter topic. */
  group: string;
  dltTopic: string;
  /** The kind of task's dead rows, and the most of them one flush locks. */
  rows: DeadTaskRows;
  batch: number;
  dataSource: DataSource;
  producer: Producer;
  metrics: ConsumerMetrics;
  logger: Logger;
}

/**
 * Dead tasks to `<group>.dlt`, built by the consumer runtime's dead-letter step so that they carry the same headers as
 * every other dead letter (original topic, partition, offset, group, event id, error, attempts). Rows are marked
 * dead-lettered only after the broker acknowledged their record, inside the transaction that locked them: a crash in
 * between sends it again (at least once), never loses it. Any worker may flush; SKIP LOCKED keeps them apart.
 *
 * A task that dies again after a replay names the `dead_letters` row the replay came from (`hookrail_dead_letter_id`),
 * as the runtime's dead letters of a failed replay do, so that the dead-letter store returns that row to `dead`
 * instead of indexing a second one.
 */
export class TaskDeadLetters {
  constructor(private readonly deps: TaskDeadLettersDeps) {}

  /**
   * Flushes now, every `everyMs` (dead rows a crash left behind) and soon after `soon()` (a task just died), one
   * flush at a time, calls in between folded into one. A flush the broker or the database did not take is logged; its
   * rows wait for the next. `stop` ends the sweep once the flush under way is done.
   */
  sweep(everyMs: number): { soon(): void; stop(): Promise<void> } {
    const { group, logger } = this.deps;
    let current: Promise<unknown> = Promise.resolve();
    const flusher = new OutboxNotifier(
      () => (current = this.flush()),
      (error) => logger.error({ group, err: errorMessage(error) }, 'could not dead-letter yet; trying again later'),
    );
    const timer = setInterval(() => flusher.committed(), everyMs);
    flusher.committed();
    return {
      soon: () => flusher.committed(),
      stop: async () => {
        clearInterval(timer);
        await current.catch(() => undefined);
      },
    };
  }

  /** Returns how many dead letters it produced. */
  async flush(): Promise<number> {
    const { dataSource, producer, dltTopic, group, metrics, logger, rows, batch } = this.deps;
    return dataSource.transaction(async (manager) => {
      const dead = await rows.takeDead(manager, batch);
      const deadLetters = new DeadLettersRepository(manager);
      for (const task of dead) {
        const replayOf =
          task.replay === 0
            ? undefined
            : await deadLetters.replayedRow(group, task.event.id, task.replay === 'latest' ? undefined : task.replay);
        const message = originalMessage(task, replayOf);
        const source = { group, topic: task.topic, partition: task.partition, message, eventId: task.event.id };
        await produceDeadLetter(producer, dltTopic, buildDeadLetter(source, task.failure));
        metrics.deadLetters.inc({ group, type: task.event.type });
        logger.warn(
          {
            group,
            eventId: task.event.id,
            topic: task.topic,
            partition: task.partition,
            offset: task.offset,
            dltTopic,
            ...task.log.fields,
          },
          task.log.message,
        );
      }
      if (dead.length > 0)
        await rows.markDeadLettered(
          manager,
          dead.flatMap((task) => task.rowIds),
        );
      return dead.length;
    });
  }
}

/** The Kafka message the event arrived in, rebuilt through the CloudEvents binding, with its replay headers. */
function originalMessage(task: DeadTask, replayOf?: { id: string; replayCount: number }): KafkaMessage {
  const record = toKafkaRecord(task.event);
  const headers: Record<string, string> = { ...record.headers };
  const replayCount = replayOf?.replayCount ?? (typeof task.replay === 'number' ? task.replay : 0);
  if (replayCount > 0) headers[HOOKRAIL_HEADERS.replayCount] = String(replayCount);
  if (replayOf) headers[HOOKRAIL_HEADERS.deadLetterId] = replayOf.id;
  return {
    key: Buffer.from(record.key),
    value: Buffer.from(task.value ?? record.value),
    headers,
    offset: task.offset,
    timestamp: String(Date.now()),
    attributes: 0,
  } as KafkaMessage;
}

/** A failure read back from a task row: class and message as recorded (the stack stayed in the worker's log). */
export class RecordedFailure extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
    this.stack = `${name}: ${message}`;
  }
}
