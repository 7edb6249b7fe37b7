import { InboundEventRepository } from '@app/inbound-events';
import { TrailSource } from '../trail';

/** The delivery that brought the event in: source, signature scheme, identity, headers without secrets. */
export const receivedTrail: TrailSource = {
  name: 'received',
  async entries(event, { db }) {
    if (!event.receivedAt) return [];
    const row = await new InboundEventRepository().findReceipt(db, event.id);
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
