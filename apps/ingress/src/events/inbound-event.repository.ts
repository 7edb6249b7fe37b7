import { poolQuery } from '@app/db';
import { insertOutboxRowFrom, NewOutboxRow, outboxRowFromParams } from '@app/outbox';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

export interface NewInboundEvent {
  id: string;
  source: string;
  senderEventId: string;
  type: string;
  aggregateId: string;
  payloadHash: string;
  payload: unknown;
  scheme: string;
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

/** SQL of the inbound_events table, one method per statement. */
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
      JSON.stringify(event.payload),
      event.scheme,
      JSON.stringify(event.headers),
      ...outboxRowFromParams(outbox),
    ]);
    return rows.length === 1;
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

  async findById(manager: EntityManager, id: string): Promise<InboundEventRow | undefined> {
    const rows: Array<{ id: string; source: string; type: string; aggregate_id: string; received_at: Date }> =
      await manager.query(`SELECT id, source, type, aggregate_id, received_at FROM inbound_events WHERE id = $1`, [id]);
    const row = rows[0];
    return (
      row && {
        id: row.id,
        source: row.source,
        type: row.type,
        aggregateId: row.aggregate_id,
        receivedAt: row.received_at,
      }
    );
  }
}
