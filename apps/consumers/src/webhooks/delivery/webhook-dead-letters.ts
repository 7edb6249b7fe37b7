import { buildDeadLetter, ConsumerMetrics, Failure, produceDeadLetter } from '@app/consumer-runtime';
import { CLOUDEVENTS_SPEC_VERSION, CloudEvent, HOOKRAIL_HEADERS, toKafkaRecord } from '@app/contracts';
import { KafkaMessage, Producer } from 'kafkajs';
import { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';

const BATCH = 100;

/** The failure as recorded in the delivery rows (the stack stayed in the worker's log). */
export class WebhookDeliveryFailedError extends Error {
  override name = 'WebhookDeliveryFailedError';
}

/**
 * Deliveries that failed for good go to `webhooks.dlt`, built by the runtime's dead-letter step so that they carry
 * the same headers as every dead letter: one place for every failure, in the dead-letter list, the console and the
 * alerts beside the other groups'. One dead letter per event (its identity is the message the event came in); its
 * message names every endpoint that failed. Replaying it sends the event's failed deliveries again. A row is marked
 * `dead_lettered_at` only after the broker acknowledged it, inside the transaction that locked it: at least once,
 * never lost. An event whose earlier dead letter was replayed names that row (`hookrail_dead_letter_id`), so the
 * dead-letter store returns it to `dead` instead of leaving it resolved.
 */
export class WebhookDeadLetters {
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
        `SELECT d.id, d.event_id, d.event_type, d.event_source, d.event_time, d.subject, d.payload, d.source_topic,
                d.source_partition, d.source_offset, d.attempts, d.last_error, d.created_at, d.failed_at, e.url
           FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.state = 'failed' AND d.dead_lettered_at IS NULL
          ORDER BY d.id
          LIMIT ${BATCH}
            FOR UPDATE OF d SKIP LOCKED`,
      );
      const byEvent = new Map<string, Array<Record<string, any>>>();
      for (const row of rows) byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), row]);
      for (const [eventId, failed] of byEvent) {
        const [first] = failed;
        const event: CloudEvent = {
          specversion: CLOUDEVENTS_SPEC_VERSION,
          id: eventId,
          source: first.event_source,
          type: first.event_type,
          time: new Date(first.event_time).toISOString(),
          datacontenttype: 'application/json',
          ...(first.subject ? { subject: first.subject } : {}),
          data: JSON.parse(first.payload),
        };
        const lastFailure = new Date(
          Math.max(...failed.map((row) => new Date(row.failed_at ?? row.created_at).getTime())),
        );
        const failure: Failure = {
          error: recorded(failed),
          errorClass: 'transient',
          attempts: Math.max(...failed.map((row) => Number(row.attempts))),
          firstFailureAt: new Date(first.created_at),
          lastFailureAt: lastFailure,
        };
        const replayOf = await findReplayedDeadLetter(manager, group, eventId);
        const message = originalMessage(event, first.payload, first.source_offset, replayOf);
        const source = {
          group,
          topic: first.source_topic,
          partition: Number(first.source_partition),
          message,
          eventId,
        };
        await produceDeadLetter(producer, dltTopic, buildDeadLetter(source, failure));
        metrics.deadLetters.inc({ group, type: event.type });
        logger.warn(
          {
            group,
            eventId,
            topic: source.topic,
            partition: source.partition,
            offset: first.source_offset,
            dltTopic,
            endpoints: failed.length,
          },
          'dead-lettered: webhook deliveries failed',
        );
      }
      if (rows.length > 0)
        await manager.query(`UPDATE webhook_deliveries SET dead_lettered_at = now() WHERE id = ANY($1::bigint[])`, [
          rows.map((row) => row.id),
        ]);
      return byEvent.size;
    });
  }
}

function recorded(failed: Array<Record<string, any>>): Error {
  const what = failed.map((row) => `${row.url} after ${row.attempts} attempts: ${row.last_error ?? 'failed'}`);
  const error = new WebhookDeliveryFailedError(`webhook delivery failed to ${what.join('; ')}`);
  error.stack = `${error.name}: ${error.message}`;
  return error;
}

/** The Kafka message the event arrived in, rebuilt through the CloudEvents binding (value: the exact payload). */
function originalMessage(
  event: CloudEvent,
  payload: string,
  offset: string,
  replayOf?: { id: string; replayCount: number },
): KafkaMessage {
  const record = toKafkaRecord(event);
  const headers: Record<string, string> = { ...record.headers };
  if (replayOf) {
    headers[HOOKRAIL_HEADERS.deadLetterId] = replayOf.id;
    headers[HOOKRAIL_HEADERS.replayCount] = String(replayOf.replayCount);
  }
  return {
    key: Buffer.from(record.key),
    value: Buffer.from(payload),
    headers,
    offset,
    timestamp: String(Date.now()),
    attributes: 0,
  } as KafkaMessage;
}

/** The dead-letter store's row of this event that a replay took out of `dead` (libs/dead-letters owns the table). */
async function findReplayedDeadLetter(
  manager: EntityManager,
  group: string,
  eventId: string,
): Promise<{ id: string; replayCount: number } | undefined> {
  const rows: Array<{ id: string; replay_count: number }> = await manager.query(
    `SELECT id, replay_count FROM dead_letters
      WHERE "group" = $1 AND event_id = $2 AND status IN ('replaying', 'resolved')
      ORDER BY updated_at DESC
      LIMIT 1`,
    [group, eventId],
  );
  return rows[0] && { id: rows[0].id, replayCount: Number(rows[0].replay_count) };
}
