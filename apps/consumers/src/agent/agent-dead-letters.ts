import { buildDeadLetter, ConsumerMetrics, Failure, produceDeadLetter } from '@app/consumer-runtime';
import { CloudEvent, HOOKRAIL_HEADERS, toKafkaRecord } from '@app/contracts';
import { KafkaMessage, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';

const BATCH = 50;

/** A failure read back from a task row: class and message as recorded (the stack stayed in the worker's log). */
class RecordedFailure extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
    this.stack = `${name}: ${message}`;
  }
}

/**
 * Dead tasks to `<group>.dlt`, built by the runtime's dead-letter step so that they carry the same headers as every
 * other dead letter (original topic, partition, offset, group, event id, error, attempts). A row is marked
 * `dead_lettered_at` only after the broker acknowledged its record, inside the transaction that locked it: a crash
 * in between sends it again (at least once), never loses it. Any worker may flush; SKIP LOCKED keeps them apart.
 *
 * A task that dies again after a replay names the `dead_letters` row the replay came from
 * (`hookrail_dead_letter_id`), as the runtime's dead letters of a failed replay do, so that the dead-letter store
 * returns that row to `dead` instead of indexing a second one. The replay's headers are gone by then (the task
 * outlives its message); the row is the one of this group and event whose replay count the task carries.
 */
export class AgentDeadLetters {
  constructor(
    private readonly deps: {
      group: string;
      dltTopic: string;
      producer: Producer;
      dataSource: DataSource;
      metrics: ConsumerMetrics;
      logger: Logger;
    },
  ) {}

  /** Returns how many dead letters it produced. */
  async flush(): Promise<number> {
    const { dataSource, producer, dltTopic, group, metrics, logger } = this.deps;
    return dataSource.transaction(async (manager) => {
      const rows: Array<Record<string, any>> = await manager.query(
        `SELECT id, event_id, event, source_topic, source_partition, source_offset, replay_count, attempts, last_error_class,
                last_error, last_error_dependency, first_failed_at, updated_at
           FROM agent_tasks
          WHERE state = 'dead' AND dead_lettered_at IS NULL
          ORDER BY id
          LIMIT ${BATCH}
            FOR UPDATE SKIP LOCKED`,
      );
      for (const row of rows) {
        const event = row.event as CloudEvent;
        const failure: Failure = {
          error: new RecordedFailure(row.last_error_class ?? 'Error', row.last_error ?? ''),
          errorClass: row.last_error_dependency ? 'dependency' : 'transient',
          attempts: Number(row.attempts),
          firstFailureAt: new Date(row.first_failed_at ?? row.updated_at),
          lastFailureAt: new Date(row.updated_at),
          ...(row.last_error_dependency && { dependency: row.last_error_dependency }),
        };
        const replayCount = Number(row.replay_count);
        const replayOf =
          replayCount > 0 ? await findReplayedDeadLetter(manager, group, event.id, replayCount) : undefined;
        const message = originalMessage(event, row.source_offset, replayCount, replayOf);
        const source = {
          group,
          topic: row.source_topic,
          partition: Number(row.source_partition),
          message,
          eventId: event.id,
        };
        await produceDeadLetter(producer, dltTopic, buildDeadLetter(source, failure));
        metrics.deadLetters.inc({ group, type: event.type });
        logger.warn(
          {
            group,
            eventId: event.id,
            topic: source.topic,
            partition: source.partition,
            offset: row.source_offset,
            dltTopic,
            errorClass: row.last_error_class,
            attempts: failure.attempts,
            retriedForMs: failure.lastFailureAt.getTime() - failure.firstFailureAt.getTime(),
            ...(failure.dependency && { dependency: failure.dependency }),
          },
          'dead-lettered',
        );
      }
      if (rows.length > 0)
        await manager.query(`UPDATE agent_tasks SET dead_lettered_at = now() WHERE id = ANY($1::bigint[])`, [
          rows.map((row) => row.id),
        ]);
      return rows.length;
    });
  }
}

/** The Kafka message the event arrived in, rebuilt through the CloudEvents binding (with its replay headers). */
function originalMessage(event: CloudEvent, offset: string, replayCount: number, replayOf?: string): KafkaMessage {
  const record = toKafkaRecord(event);
  const headers: Record<string, string> = { ...record.headers };
  if (replayCount > 0) headers[HOOKRAIL_HEADERS.replayCount] = String(replayCount);
  if (replayOf) headers[HOOKRAIL_HEADERS.deadLetterId] = replayOf;
  return {
    key: Buffer.from(record.key),
    value: Buffer.from(record.value),
    headers,
    offset,
    timestamp: String(Date.now()),
    attributes: 0,
  } as KafkaMessage;
}

/** The dead-letter store's row whose replay number `replayCount` reset this task (libs/dead-letters owns the table). */
async function findReplayedDeadLetter(
  manager: EntityManager,
  group: string,
  eventId: string,
  replayCount: number,
): Promise<string | undefined> {
  const rows: Array<{ id: string }> = await manager.query(
    `SELECT id FROM dead_letters
      WHERE "group" = $1 AND event_id = $2 AND replay_count = $3 AND status IN ('replaying', 'resolved')
      ORDER BY updated_at DESC
      LIMIT 1`,
    [group, eventId, replayCount],
  );
  return rows[0]?.id;
}
