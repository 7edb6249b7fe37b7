import { poolQuery } from '@app/db';
import {
  insertOutboxRowFrom,
  insertOutboxRowsFrom,
  NewOutboxRow,
  outboxRowFromParams,
  outboxRowsFromParams,
} from '@app/outbox';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

export interface NewInboundEvent {
  id: string;
  source: string;
  senderEventId: string;
  type: string;
  aggregateId: string;
  payloadHash: string;
  /** The payload as JSON text (the jsonb column parses it). */
  payloadJson: string;
  /** The signature scheme that verified it. */
  scheme: string;
  /** The delivery's headers without credentials or signatures, for the event's trail. */
  headers: Record<string, string>;
}

export interface InboundEventRow {
  id: string;
  source: string;
  type: string;
  aggregateId: string;
  receivedAt: Date;
}

/** The statement of `insertWithOutbox`; its second half is the outbox library's INSERT (`insertOutboxRowFrom`). */
const INSERT_WITH_OUTBOX = `WITH event AS (
         INSERT INTO inbound_events (id, source, sender_event_id, type, aggregate_id, payload_hash, payload, scheme, headers)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (source, sender_event_id) DO NOTHING
         RETURNING id
       ), queued AS (
         ${insertOutboxRowFrom('event', 10)}
       )
       SELECT event_id FROM queued`;

/** The statement of `insertManyWithOutbox`: `INSERT_WITH_OUTBOX` for arrays of rows. */
const INSERT_MANY_WITH_OUTBOX = `WITH event AS (
         INSERT INTO inbound_events (id, source, sender_event_id, type, aggregate_id, payload_hash, payload, scheme, headers)
         SELECT * FROM unnest(
           $1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::text[], $9::jsonb[]
         )
         ON CONFLICT (source, sender_event_id) DO NOTHING
         RETURNING id
       ), queued AS (
         ${insertOutboxRowsFrom('event', 10)}
       )
       SELECT event_id FROM queued`;

/** An event row and its outbox row, written together or not at all. */
export interface EventWithOutbox {
  event: NewInboundEvent;
  outbox: NewOutboxRow;
}

/** A received event that a ref names, and how the ref matched it. */
export interface ReceivedEventMatch extends InboundEventRow {
  senderEventId: string;
  byId: boolean;
  bySender: boolean;
  byAggregate: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * SQL of the inbound_events table, one method per statement: the ingress's writes, its retention and status reads,
 * the console's accepted chart and an event's trail.
 */
@Injectable()
export class InboundEventRepository {
  /**
   * The request plane's one durable write: the event and its outbox row in ONE statement, hence one transaction
   * and one round trip. The outbox row is inserted only from the event row the statement inserted, so a conflict
   * on (source, sender_event_id) — decided by the unique constraint — writes neither. True when inserted.
   */
  async insertWithOutbox(dataSource: DataSource, event: NewInboundEvent, outbox: NewOutboxRow): Promise<boolean> {
    const rows = await poolQuery(dataSource, INSERT_WITH_OUTBOX, [
      event.id,
      event.source,
      event.senderEventId,
      event.type,
      event.aggregateId,
      event.payloadHash,
      event.payloadJson,
      event.scheme,
      JSON.stringify(event.headers),
      ...outboxRowFromParams(outbox),
    ]);
    return rows.length === 1;
  }

  /**
   * `insertWithOutbox` for many deliveries in ONE statement, so one transaction and one commit (the group commit).
   * Each event row whose (source, sender_event_id) is free is inserted with its outbox row; a conflict — with a
   * committed row, a concurrent transaction's, or an earlier row of the same call — writes neither. The event rows
   * go in (source, sender_event_id) order, so that two concurrent calls take their unique-index locks in the same
   * order and cannot deadlock; the outbox rows go in the order given. Returns the ids of the events inserted.
   */
  async insertManyWithOutbox(dataSource: DataSource, rows: readonly EventWithOutbox[]): Promise<Set<string>> {
    const events = rows.map((row) => row.event).sort(bySenderEventId);
    const columns: string[][] = [[], [], [], [], [], [], [], [], []];
    for (const event of events) {
      columns[0].push(event.id);
      columns[1].push(event.source);
      columns[2].push(event.senderEventId);
      columns[3].push(event.type);
      columns[4].push(event.aggregateId);
      columns[5].push(event.payloadHash);
      columns[6].push(event.payloadJson);
      columns[7].push(event.scheme);
      columns[8].push(JSON.stringify(event.headers));
    }
    const inserted = await poolQuery<{ event_id: string }>(dataSource, INSERT_MANY_WITH_OUTBOX, [
      ...columns,
      ...outboxRowsFromParams(rows.map((row) => row.outbox)),
    ]);
    return new Set(inserted.map((row) => row.event_id));
  }

  /** The committed winner of a conflict: its id and payload hash. */
  async findBySenderEventId(
    manager: EntityManager | DataSource,
    source: string,
    senderEventId: string,
  ): Promise<{ id: string; payloadHash: string } | undefined> {
    const rows: Array<{ id: string; payload_hash: string }> = await manager.query(
      `SELECT id, payload_hash FROM inbound_events WHERE source = $1 AND sender_event_id = $2`,
      [source, senderEventId],
    );
    return rows[0] && { id: rows[0].id, payloadHash: rows[0].payload_hash };
  }

  /** Retention: up to `limit` events received before `cutoff`; returns how many were deleted. */
  async deleteReceivedBefore(manager: EntityManager, cutoff: Date, limit: number): Promise<number> {
    const [{ deleted }]: Array<{ deleted: number }> = await manager.query(
      `WITH doomed AS (
         SELECT id FROM inbound_events WHERE received_at < $1 ORDER BY received_at LIMIT $2
       ), gone AS (
         DELETE FROM inbound_events e USING doomed d WHERE e.id = d.id RETURNING 1
       )
       SELECT count(*)::int AS deleted FROM gone`,
      [cutoff, limit],
    );
    return deleted;
  }

  /** The event with how it was authenticated (`scheme`: the webhook's signature scheme, or `cloudevents`). */
  async findById(
    manager: EntityManager,
    id: string,
  ): Promise<(InboundEventRow & { scheme: string | null }) | undefined> {
    const rows: Array<{
      id: string;
      source: string;
      type: string;
      aggregate_id: string;
      received_at: Date;
      scheme: string | null;
    }> = await manager.query(
      `SELECT id, source, type, aggregate_id, received_at, scheme FROM inbound_events WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    return (
      row && {
        id: row.id,
        source: row.source,
        type: row.type,
        aggregateId: row.aggregate_id,
        receivedAt: row.received_at,
        scheme: row.scheme,
      }
    );
  }

  /** Events received in [from, to), all sources: the console's accepted chart. */
  async countReceivedBetween(manager: EntityManager | DataSource, from: Date, to: Date): Promise<number> {
    const [{ count }]: Array<{ count: number }> = await manager.query(
      `SELECT count(*)::int AS count FROM inbound_events WHERE received_at >= $1 AND received_at < $2`,
      [from, to],
    );
    return count;
  }

  /** How the event came in: its signature scheme and its headers without secrets (undefined once pruned). */
  async findReceipt(
    manager: EntityManager | DataSource,
    id: string,
  ): Promise<{ scheme: string | null; headers: Record<string, string> | null } | undefined> {
    const rows: Array<{ scheme: string | null; headers: Record<string, string> | null }> = await manager.query(
      `SELECT scheme, headers FROM inbound_events WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /**
   * The newest `limit` received events a ref names (by event id, by a sender's event id in any source, or by
   * aggregate id), newest first. The sender id is looked up per source through the (source, sender_event_id) unique
   * index: the distinct sources are walked with a loose index scan, so no second index is needed for it.
   */
  async findByRef(manager: EntityManager | DataSource, ref: string, limit: number): Promise<ReceivedEventMatch[]> {
    // A ref that is not a UUID cannot be cast to one (Postgres would fail the whole statement), so that arm is left out.
    const byId = UUID.test(ref) ? `SELECT e.id FROM inbound_events e WHERE e.id = $1::text::uuid UNION` : '';
    const rows: Array<{
      id: string;
      source: string;
      sender_event_id: string;
      type: string;
      aggregate_id: string;
      received_at: Date;
      by_id: boolean;
      by_sender: boolean;
      by_aggregate: boolean;
    }> = await manager.query(
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
      [ref, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      source: row.source,
      senderEventId: row.sender_event_id,
      type: row.type,
      aggregateId: row.aggregate_id,
      receivedAt: new Date(row.received_at),
      byId: row.by_id,
      bySender: row.by_sender,
      byAggregate: row.by_aggregate,
    }));
  }
}

function bySenderEventId(a: NewInboundEvent, b: NewInboundEvent): number {
  if (a.source !== b.source) return a.source < b.source ? -1 : 1;
  return a.senderEventId < b.senderEventId ? -1 : a.senderEventId > b.senderEventId ? 1 : 0;
}
