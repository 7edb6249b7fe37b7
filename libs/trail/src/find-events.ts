import { TrailDb, TrailEvent } from './trail';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An aggregate may have many events; a trail lists its newest ones. */
export const MAX_TRAIL_EVENTS = 20;

interface EventRow {
  id: string;
  source: string;
  sender_event_id: string;
  type: string;
  aggregate_id: string;
  received_at: Date;
  by_id: boolean;
  by_sender: boolean;
  by_aggregate: boolean;
}

/**
 * The received events a ref names: by event id, by the sender's event id (any source), or by aggregate id; oldest
 * first. The sender id is looked up per source through the (source, sender_event_id) unique index: the distinct
 * sources are walked with a loose index scan, so no second index is needed for it.
 */
export async function findReceivedEvents(db: TrailDb, ref: string): Promise<TrailEvent[]> {
  // A ref that is not a UUID cannot be cast to one (Postgres would fail the whole statement), so that arm is left out.
  const byId = UUID.test(ref) ? `SELECT e.id FROM inbound_events e WHERE e.id = $1::text::uuid UNION` : '';
  const rows: EventRow[] = await db.query(
    `WITH RECURSIVE sources AS (
       SELECT min(source) AS source FROM inbound_events
       UNION ALL
       SELECT (SELECT min(source) FROM inbound_events WHERE source > sources.source) FROM sources WHERE sources.source IS NOT NULL
     ), matches AS (
       ${byId}
       SELECT e.id FROM sources s JOIN inbound_events e ON e.source = s.source AND e.sender_event_id = $1
       UNION
       (SELECT e.id FROM inbound_events e WHERE e.aggregate_id = $1 ORDER BY e.received_at DESC LIMIT $2)
     )
     SELECT e.id, e.source, e.sender_event_id, e.type, e.aggregate_id, e.received_at,
            e.id::text = lower($1) AS by_id, e.sender_event_id = $1 AS by_sender, e.aggregate_id = $1 AS by_aggregate
       FROM matches m JOIN inbound_events e ON e.id = m.id
      ORDER BY e.received_at DESC, e.id LIMIT $2`,
    [ref, MAX_TRAIL_EVENTS],
  );
  return rows.reverse().map((row) => ({
    id: row.id,
    source: row.source,
    senderEventId: row.sender_event_id,
    type: row.type,
    aggregateId: row.aggregate_id,
    receivedAt: new Date(row.received_at),
    matchedBy: [
      ...(row.by_id ? (['id'] as const) : []),
      ...(row.by_sender ? (['senderEventId'] as const) : []),
      ...(row.by_aggregate ? (['aggregateId'] as const) : []),
    ],
  }));
}

/**
 * An event that was never received (a service wrote it to the outbox itself, e.g. a saga's command) but left traces
 * under its id: its outbox row, a group's processing or a dead letter.
 */
export async function findUnreceivedEvent(db: TrailDb, id: string): Promise<TrailEvent | undefined> {
  const outbox = UUID.test(id) ? `SELECT 1 FROM outbox WHERE event_id = $1::text::uuid UNION ALL` : '';
  const rows: unknown[] = await db.query(
    `${outbox} SELECT 1 FROM processed_events WHERE event_id = $1
     UNION ALL SELECT 1 FROM consumer_event_status WHERE event_id = $1
     UNION ALL SELECT 1 FROM dead_letters WHERE event_id = $1
     LIMIT 1`,
    [id],
  );
  if (rows.length === 0) return undefined;
  return {
    id,
    source: null,
    senderEventId: null,
    type: null,
    aggregateId: null,
    receivedAt: null,
    matchedBy: ['id'],
  };
}
