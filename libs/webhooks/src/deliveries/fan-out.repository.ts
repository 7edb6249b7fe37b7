import { preparedQuery } from '@app/db';
import { eventTypeMatchSql } from '../event-type-filter';
import { EntityManager } from 'typeorm';

/**
 * One event as the fan-out writes it: one delivery row for each endpoint whose filters match it, of the operator's
 * and of the event's customer. A disabled endpoint's rows wait, pending, until it is enabled (or retention deletes
 * them).
 */
export interface FanOutRow {
  eventId: string;
  /** The id its producer gave the event (`POST /events`), its CloudEvents id; null: the event is hookrail's own. */
  producerEventId: string | null;
  eventType: string;
  eventSource: string;
  eventTime: string;
  subject: string | null;
  orderingKey: string;
  payload: string;
  sourceTopic: string;
  sourcePartition: number;
  sourceOffset: string;
  /** The writing span's context, when the consumers trace. */
  traceparent: string | null;
  /** The customer the event belongs to (its `customerid` attribute, the customer's `uid`); null: none. */
  customerId: string | null;
}

// Each event reads the operator's endpoints and its own customer's, through the two partial indexes, never another
// customer's. Rows are numbered in the order the events were consumed, so that ids (the order an ordered endpoint
// keeps per key) follow the partition's order; a delivery that exists already (a redelivered event) is left alone.
const FAN_OUT = `
WITH inserted AS (
  INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, event_source, event_time, subject, ordering_key,
                                  ordered, payload, source_topic, source_partition, source_offset, traceparent,
                                  producer_event_id, next_attempt_at)
  SELECT e.id, u.event_id, u.event_type, u.event_source, u.event_time, u.subject, u.ordering_key, e.ordered, u.payload,
         u.source_topic, u.source_partition, u.source_offset, u.traceparent, u.producer_event_id,
         now() + $13 * interval '1 millisecond'
    FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::varchar[], $6::varchar[],
                $7::text[], $8::varchar[], $9::int[], $10::varchar[], $11::varchar[], $12::varchar[],
                $14::varchar[]) WITH ORDINALITY
         AS u(event_id, event_type, event_source, event_time, subject, ordering_key, payload, source_topic,
              source_partition, source_offset, traceparent, customer_uid, producer_event_id, ord)
   CROSS JOIN LATERAL (
         SELECT o.id, o.ordered, o.event_types, o.payload_filters
           FROM webhook_endpoints o
          WHERE o.customer_id IS NULL
         UNION ALL
         SELECT c.id, c.ordered, c.event_types, c.payload_filters
           FROM webhook_customers wc
           JOIN webhook_endpoints c ON c.customer_id = wc.id
          WHERE wc.uid = u.customer_uid
       ) e
   WHERE ${eventTypeMatchSql('e.event_types', 'u.event_type')}
     AND (e.payload_filters IS NULL OR webhook_payload_matches(u.payload::jsonb, e.payload_filters))
   ORDER BY u.ord, e.id
  ON CONFLICT (event_id, endpoint_id) DO NOTHING
  RETURNING 1
)
SELECT count(*)::int AS count FROM inserted`;

/** In the consumer's transaction (with its dedupe rows): the deliveries of a batch of events; returns how many. */
export async function insertDeliveries(
  manager: EntityManager,
  rows: FanOutRow[],
  firstDelayMs: number,
): Promise<number> {
  const [{ count }] = await preparedQuery<{ count: number }>(manager, FAN_OUT, fanOutParameters(rows, firstDelayMs));
  return count;
}

/** The fan-out statement and its parameters, for a plan's measure (EXPLAIN) of exactly what the consumers run. */
export function fanOutStatement(rows: FanOutRow[], firstDelayMs: number): { sql: string; parameters: unknown[] } {
  return { sql: FAN_OUT, parameters: fanOutParameters(rows, firstDelayMs) };
}

function fanOutParameters(rows: FanOutRow[], firstDelayMs: number): unknown[] {
  const column = <K extends keyof FanOutRow>(key: K) => rows.map((row) => row[key]);
  return [
    column('eventId'),
    column('eventType'),
    column('eventSource'),
    column('eventTime'),
    column('subject'),
    column('orderingKey'),
    column('payload'),
    column('sourceTopic'),
    column('sourcePartition'),
    column('sourceOffset'),
    column('traceparent'),
    column('customerId'),
    firstDelayMs,
    column('producerEventId'),
  ];
}

/**
 * A replayed dead letter of this group (`webhooks.replay`): the event's failed deliveries go again with a fresh
 * schedule. Returns how many; -1 when the event has no deliveries at all (its fan-out itself had failed).
 */
export async function requeueFailedDeliveries(
  manager: EntityManager,
  eventId: string,
  replayCount: number,
): Promise<number> {
  const [row]: Array<{ total: number; requeued: number }> = await manager.query(
    `WITH requeued AS (
       UPDATE webhook_deliveries
          SET state = 'pending', attempts = 0, next_attempt_at = now(), lease_until = NULL, failed_at = NULL,
              dead_lettered_at = NULL, replay_count = GREATEST(replay_count + 1, $2), updated_at = now()
        WHERE event_id = $1 AND state = 'failed'
       RETURNING 1
     )
     SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE event_id = $1) AS total,
            (SELECT count(*)::int FROM requeued) AS requeued`,
    [eventId, replayCount],
  );
  return row.total === 0 ? -1 : row.requeued;
}
