import { Failure } from '@app/consumer-runtime';
import { CLOUDEVENTS_SPEC_VERSION, CloudEvent } from '@app/contracts';
import { DeadTask, DeadTaskRows } from '@app/tasks';
import { EntityManager } from 'typeorm';

/** At most this many failed deliveries per flush. */
export const WEBHOOK_DEAD_LETTER_BATCH = 100;

/** The failure as recorded in the delivery rows (the stack stayed in the worker's log). */
export class WebhookDeliveryFailedError extends Error {
  override name = 'WebhookDeliveryFailedError';
}

/**
 * Deliveries that failed for good, as dead letters of `webhooks.dlt` for the task engine's dead-lettering: one place
 * for every failure, in the dead-letter list, the console and the alerts beside the other groups'. One dead letter
 * per event (its identity is the message the event came in, its value the exact payload); its message names every
 * endpoint that failed. Replaying it sends the event's failed deliveries again; an event whose earlier dead letter
 * was replayed names the newest such row.
 */
export const webhookDeadDeliveries: DeadTaskRows = {
  async takeDead(manager: EntityManager, limit: number): Promise<DeadTask[]> {
    const rows: Array<Record<string, any>> = await manager.query(
      `SELECT d.id, d.event_id, d.producer_event_id, d.event_type, d.event_source, d.event_time, d.subject, d.payload,
              d.source_topic, d.source_partition, d.source_offset, d.attempts, d.last_error, d.created_at, d.failed_at,
              e.url
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.state = 'failed' AND d.dead_lettered_at IS NULL
        ORDER BY d.id
        LIMIT ${Number(limit)}
          FOR UPDATE OF d SKIP LOCKED`,
    );
    const byEvent = new Map<string, Array<Record<string, any>>>();
    for (const row of rows) byEvent.set(row.event_id, [...(byEvent.get(row.event_id) ?? []), row]);
    return [...byEvent.values()].map(deadLetterOf);
  },

  async markDeadLettered(manager: EntityManager, rowIds: string[]): Promise<void> {
    await manager.query(`UPDATE webhook_deliveries SET dead_lettered_at = now() WHERE id = ANY($1::bigint[])`, [
      rowIds,
    ]);
  },
};

function deadLetterOf(failed: Array<Record<string, any>>): DeadTask {
  const [first] = failed;
  const event: CloudEvent = {
    specversion: CLOUDEVENTS_SPEC_VERSION,
    id: first.event_id,
    ...(first.producer_event_id ? { producerId: first.producer_event_id } : {}),
    source: first.event_source,
    type: first.event_type,
    time: new Date(first.event_time).toISOString(),
    datacontenttype: 'application/json',
    ...(first.subject ? { subject: first.subject } : {}),
    data: JSON.parse(first.payload),
  };
  const failure: Failure = {
    error: recorded(failed),
    errorClass: 'transient',
    attempts: Math.max(...failed.map((row) => Number(row.attempts))),
    firstFailureAt: new Date(first.created_at),
    lastFailureAt: new Date(Math.max(...failed.map((row) => new Date(row.failed_at ?? row.created_at).getTime()))),
  };
  return {
    rowIds: failed.map((row) => String(row.id)),
    event,
    value: first.payload,
    topic: first.source_topic,
    partition: Number(first.source_partition),
    offset: first.source_offset,
    failure,
    replay: 'latest',
    log: { message: 'dead-lettered: webhook deliveries failed', fields: { endpoints: failed.length } },
  };
}

function recorded(failed: Array<Record<string, any>>): Error {
  const what = failed.map((row) => `${row.url} after ${row.attempts} attempts: ${row.last_error ?? 'failed'}`);
  const error = new WebhookDeliveryFailedError(`webhook delivery failed to ${what.join('; ')}`);
  error.stack = `${error.name}: ${error.message}`;
  return error;
}
