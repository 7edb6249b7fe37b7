import { TrailSource } from '../trail';

/** The delivery that brought the event in: source, signature scheme, identity, headers without secrets. */
export const receivedTrail: TrailSource = {
  name: 'received',
  async entries(event, { db }) {
    if (!event.receivedAt) return [];
    const rows: Array<{ scheme: string | null; headers: Record<string, string> | null }> = await db.query(
      `SELECT scheme, headers FROM inbound_events WHERE id = $1`,
      [event.id],
    );
    const row = rows[0];
    if (!row) return [];
    return [
      {
        at: event.receivedAt,
        step: 'received',
        level: 'ok',
        beforeGroups: true,
        summary: `received from ${event.source}${row.scheme ? ` (${row.scheme})` : ''}: ${event.type}, sender id ${event.senderEventId}, aggregate ${event.aggregateId}`,
        detail: {
          source: event.source,
          scheme: row.scheme,
          senderEventId: event.senderEventId,
          type: event.type,
          aggregateId: event.aggregateId,
          headers: row.headers ?? {},
        },
      },
    ];
  },
};
