import { findGroupRecords } from '@app/consumer-runtime';
import { managerRows } from '@app/db';
import { DeadLettersRepository } from '@app/dead-letters';
import { InboundEventRepository } from '@app/inbound-events';
import { OutboxRepository } from '@app/outbox';
import { TrailDb, TrailEvent } from './trail';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An aggregate may have many events; a trail lists its newest ones. */
export const MAX_TRAIL_EVENTS = 20;

/**
 * The received events a ref names: by event id, by the sender's event id (any source), or by aggregate id; oldest
 * first (`InboundEventRepository.findByRef`).
 */
export async function findReceivedEvents(db: TrailDb, ref: string): Promise<TrailEvent[]> {
  const rows = await new InboundEventRepository().findByRef(db, ref, MAX_TRAIL_EVENTS);
  return rows.reverse().map((row) => ({
    id: row.id,
    source: row.source,
    senderEventId: row.senderEventId,
    type: row.type,
    aggregateId: row.aggregateId,
    receivedAt: row.receivedAt,
    matchedBy: [
      ...(row.byId ? (['id'] as const) : []),
      ...(row.bySender ? (['senderEventId'] as const) : []),
      ...(row.byAggregate ? (['aggregateId'] as const) : []),
    ],
  }));
}

/**
 * An event that was never received (a service wrote it to the outbox itself, e.g. a saga's command) but left traces
 * under its id: its outbox row, a group's processing or a dead letter.
 */
export async function findUnreceivedEvent(db: TrailDb, id: string): Promise<TrailEvent | undefined> {
  const traced =
    // An outbox row's event id is a UUID; another id cannot be cast to one.
    (UUID.test(id) && (await new OutboxRepository(managerRows(db)).findPublication(id)) !== undefined) ||
    (await findGroupRecords(db, id)).length > 0 ||
    (await new DeadLettersRepository(db).listByEvent(id)).length > 0;
  if (!traced) return undefined;
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
