import { CloudEvent, toKafkaRecord } from '@app/contracts';
import { EntityManager } from 'typeorm';
// By path, like outbox-notify: @app/db's entity list imports @app/outbox.
import { preparedQuery } from '../../db/src/pool-query';
import { laneOf } from './outbox-lanes';

/** The column values of one outbox row, in the order of OUTBOX_COLUMNS. */
export interface NewOutboxRow {
  lane: number;
  eventId: string;
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export const OUTBOX_COLUMNS = 'lane, event_id, topic, key, value, headers';

/** A CloudEvent as an outbox row: CloudEvents Kafka binding (binary mode), keyed by its subject, laned by the key. */
export function toOutboxRow(topic: string, event: CloudEvent): NewOutboxRow {
  const record = toKafkaRecord(event);
  return {
    lane: laneOf(record.key),
    eventId: event.id,
    topic,
    key: record.key,
    value: record.value,
    headers: record.headers,
  };
}

export const outboxParams = (row: NewOutboxRow): unknown[] => [
  row.lane,
  row.eventId,
  row.topic,
  row.key,
  row.value,
  row.headers,
];

/**
 * Adds a CloudEvent to the outbox inside the caller's transaction (`manager` is the transaction's manager): it is
 * published when, and only if, that transaction commits. The topic is chosen by the caller; the key is the subject.
 * After the commit, call `OutboxNotifier#committed` (or `notifyOutbox`) so a relay picks it up at once rather than at
 * its next poll. The insert is prepared once per connection (a saga writes one per message it handles).
 */
export async function addToOutbox(manager: EntityManager, topic: string, event: CloudEvent): Promise<void> {
  await preparedQuery(
    manager,
    `INSERT INTO outbox (${OUTBOX_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`,
    outboxParams(toOutboxRow(topic, event)),
  );
}
